"""Run in each kernel of the site's build (``IPKernelApp.exec_files``), never in a student's kernel.

- Progress bars draw nothing: a tqdm widget would leave widget state on a static page, where it
  cannot run (``TQDM_DISABLE`` alone does not silence a bar made with an explicit ``disable=``).
- Each matplotlib figure carries alt text made of its own titles (``fig.suptitle``, each axes'
  title, its axis labels): what the figure shows, in the words its code gave it.  IPython keeps
  it in the output's metadata (``metadata["image/png"]["alt"]``), where docs/build_site.py reads it.
"""


def _set_up_the_build_kernel():
    import functools

    import tqdm.auto
    import tqdm.autonotebook
    import tqdm.std
    from IPython.core import pylabtools

    class SilentProgress(tqdm.std.tqdm):
        def __init__(self, *args, **kwargs):
            kwargs["disable"] = True
            super().__init__(*args, **kwargs)

    tqdm.auto.tqdm = tqdm.autonotebook.tqdm = SilentProgress

    def describe(fig) -> str:
        parts = [fig._suptitle.get_text()] if getattr(fig, "_suptitle", None) else []
        for ax in fig.axes:
            title = " ".join(
                t for t in (ax.get_title("left"), ax.get_title(), ax.get_title("right")) if t
            )
            labels = " against ".join(t for t in (ax.get_ylabel(), ax.get_xlabel()) if t)
            if title and labels:
                parts.append(f"{title} ({labels})")
            elif title or labels:
                parts.append(title or labels)
        return "; ".join(p.strip() for p in parts if p.strip())

    plain = pylabtools.print_figure

    @functools.wraps(plain)
    def print_figure(fig, *args, **kwargs):
        data = plain(fig, *args, **kwargs)
        words = describe(fig)
        return (data, {"alt": words}) if data and words else data

    pylabtools.print_figure = print_figure


_set_up_the_build_kernel()
del _set_up_the_build_kernel
