"""nbgrader's collect for a real class: a submission is collected only if its student sent it.

Every account can write to nbgrader's inbound, and ``nbgrader submit --student=NAME`` names any
student: nbgrader's own collect warns when the owner differs ("cheating attempt?") and collects
it anyway, in place of the named student's own.  Here the folder and every file in it must belong
to the account the submission names; any other is left in the inbound, and the instructor is told
in one line who sent it.
"""

from __future__ import annotations

import glob
import os
import pwd
from collections import defaultdict

from nbgrader.exchange.default.collect import ExchangeCollect


def senders(path: str) -> set[str]:
    """The accounts owning the folder ``path`` and everything in it (links not followed)."""
    uids = {os.lstat(path).st_uid}
    for folder, subfolders, files in os.walk(path):
        uids.update(os.lstat(os.path.join(folder, name)).st_uid for name in subfolders + files)
    names = set()
    for uid in uids:
        try:
            names.add(pwd.getpwuid(uid).pw_name)
        except KeyError:
            names.add(f"user id {uid}")
    return names


class OwnedCollect(ExchangeCollect):
    """``nbgrader collect`` that skips, and names, submissions sent by another account."""

    def init_src(self):
        super().init_src()  # the checks, the inbound's path, the due date
        student = self.coursedir.student_id or "*"
        pattern = os.path.join(self.inbound_path, f"{student}+{self.coursedir.assignment_id}+*")
        by_student = defaultdict(list)
        for path in glob.glob(pattern):
            record = self._path_to_record(path)
            sent_by = senders(path)
            if sent_by == {record["username"]}:
                by_student[record["username"]].append(record)
            else:
                self.log.error(
                    "Not collected: %s names %s but was sent by %s.",
                    record["filename"],
                    record["username"],
                    " and ".join(sorted(sent_by)),
                )
        self.src_records = [self.chosen(records) for records in by_student.values()]

    def chosen(self, records: list[dict]) -> dict:
        """The submission nbgrader would take of one student's: the latest, or with
        ``--before-duedate`` the latest before the due date if there is one."""
        records = self._sort_by_timestamp(records)
        if self.duedate is not None and self.before_duedate:
            early = [r for r in records if r["timestamp"] <= self.duedate]
            return early[0] if early else records[0]
        return records[0]
