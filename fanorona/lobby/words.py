"""The lobby's own sentences, by code, in the kit's four languages.

The server sends each refusal, each reason it drops a client and each reason an invitation is
withdrawn or a game is not rated as a code with its values beside the English sentence; the lobby's
page (which gets this catalogue with its HTML) and the kit's board say it in their own language.
A code this catalogue lacks is said by the English sentence that came with it.
"""

from __future__ import annotations

import re

#: Each code's sentence: lower case, no full stop (``say`` adds them); ``{name}`` is a value, a
#: ``{side}`` value ("white" or "black") is said in the language too.
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "end_resigned": "{side} resigned",
        "end_timeout": "{side} ran out of time",
        "end_agreed": "agreed by both players",
        "end_instructor": "ended by the instructor {name}",
        "end_no_first": "aborted: {side} did not play a first turn within {minutes} minutes",
        "end_none_back": "aborted: the players did not come back within {minutes} minutes of a "
        "restart",
        "end_not_back": "{side} did not come back within {minutes} minutes of the lobby's restart",
        "not_a_player": "{name} does not play in game {game}: only its players act in it",
        "over": "game {game} is over ({reason})",
        "wrong_ply": "that turn is for turn {ply} of game {game}, which is at turn {now}: an old "
        "or repeated message",
        "not_your_turn": "it is {side}'s turn in game {game}, not yours",
        "time_ran_out": "your time ran out in game {game}: {reason}",
        "illegal": "{reason}",
        "no_draw_offer": "there is no draw offer from your opponent in game {game}",
        "elsewhere": "you connected again from somewhere else; this connection is closed",
        "host_left": "{name} left the lobby",
        "expired": "it was not accepted within {minutes} minutes",
        "games_cap_you": "you already play {n} games, the most at once: finish one first",
        "games_cap": "{name} already plays {n} games, the most at once: finish one first",
        "invite_self": "you cannot invite yourself: invite a classmate, or by link",
        "no_such_player": "there is nobody called {name} in this class",
        "invites_out": "you have {n} open invitations, the most at once: wait for an answer",
        "invites_in": "{name} has {n} invitations waiting already: try again later",
        "not_open": "that invitation is not open: it was taken, withdrawn, or never made",
        "own_invitation": "that is your own invitation: a classmate accepts it",
        "not_for_you": "that invitation is for {name}, not for you",
        "no_live_game": "there is no live game {game}",
        "instructor_class_view": "only the instructor may see the class view",
        "instructor_end_game": "only the instructor may end a game",
        "no_game": "there is no game {game}",
        "seq_used": "message number {seq} was used already: each message needs a higher seq "
        "than the last, and an old one is not played again",
        "hello_twice": "you said hello already: send it once, first",
        "rate": "too many messages: one player sends at most {rate} a second, from all their "
        "connections together",
        "hello_late": "say who you are within {seconds} s: send a hello message with your token",
        "hello_first": 'the first message is {"type": "hello", "seq": 1, "token": ...}',
        "unknown_token": "that token belongs to nobody in this class: ask your instructor for "
        "yours",
        "door_full": "too many connections are waiting to sign in: this, the oldest, is closed",
        "backlog": "more than {n} messages waited for you to read them",
        "too_big": "a message is at most {limit} bytes; this one has {size}",
        "not_json": "a message is one JSON object; this one is not JSON",
        "not_object": 'a message is a JSON object like {"type": "ladder", "seq": 1}',
        "bad_type": "a message's type is one of {types}",
        "bad_seq": "a {kind} message needs seq, a whole number counting up from 1",
        "extra_field": "a {kind} message has no field '{field}'",
        "missing_field": "a {kind} message needs its '{field}' field",
        "bad_text": "in a {kind} message, {what} is text like '{example}'",
        "bad_whole": "in a {kind} message, {what} is a whole number from {low} to {high}",
        "bad_flag": "in a {kind} message, {field} is true or false",
        "bad_size": "in a {kind} message, {reason}",
        "board_too_big": "in a {kind} message, the lobby plays boards of at most {most} points; "
        "{size} has {n}",
        "bad_rules": "in a {kind} message, rules is one of {choices}",
        "bad_clock": "in a {kind} message, clock is minutes and seconds a turn, like '5+3' (1 to "
        "180 minutes)",
        "bad_name": "a player's name is 1 to 40 letters, digits or any of _.@-; got {name}",
        "unrated_aborted": "an aborted game is not rated",
        "unrated_turns": "a game is rated once each side has played {n} turns",
        "unrated_pair": "{white} and {black} have played {n} rated games against each other in "
        "the last {hours} hours, the most that count",
        "unrated_unranked": "the game was not ranked",
    },
    "da": {
        "end_resigned": "{side} opgav",
        "end_timeout": "{side} løb tør for tid",
        "end_agreed": "aftalt af begge spillere",
        "end_instructor": "afsluttet af læreren {name}",
        "end_no_first": "afbrudt: {side} spillede ikke et første træk inden {minutes} minutter",
        "end_none_back": "afbrudt: spillerne kom ikke tilbage inden {minutes} minutter efter en "
        "genstart",
        "end_not_back": "{side} kom ikke tilbage inden {minutes} minutter efter lobbyens genstart",
        "not_a_player": "{name} spiller ikke med i parti {game}: kun dets spillere handler i det",
        "over": "parti {game} er slut",
        "wrong_ply": "det træk hører til træk {ply} i parti {game}, som er ved træk {now}: en "
        "gammel eller gentaget besked",
        "not_your_turn": "det er {side}s tur i parti {game}, ikke din",
        "time_ran_out": "din tid løb ud i parti {game}",
        "illegal": "det træk er ikke lovligt her",
        "no_draw_offer": "din modstander har ikke tilbudt remis i parti {game}",
        "elsewhere": "du forbandt dig igen fra et andet sted; denne forbindelse er lukket",
        "host_left": "{name} forlod lobbyen",
        "expired": "den blev ikke modtaget inden for {minutes} minutter",
        "games_cap_you": "du spiller allerede {n} partier, det højeste antal på én gang: gør et "
        "af dem færdigt først",
        "games_cap": "{name} spiller allerede {n} partier, det højeste antal på én gang: et af "
        "dem skal slutte først",
        "invite_self": "du kan ikke invitere dig selv: inviter en klassekammerat eller med et link",
        "no_such_player": "der er ingen ved navn {name} i denne klasse",
        "invites_out": "du har {n} åbne invitationer, det højeste antal på én gang: vent på et "
        "svar",
        "invites_in": "{name} har allerede {n} ventende invitationer: prøv igen senere",
        "not_open": "den invitation er ikke åben: den blev taget, trukket tilbage eller aldrig "
        "lavet",
        "own_invitation": "det er din egen invitation: en klassekammerat tager imod den",
        "not_for_you": "den invitation er til {name}, ikke til dig",
        "no_live_game": "der er intet igangværende parti {game}",
        "instructor_class_view": "kun læreren kan se klassens partier",
        "instructor_end_game": "kun læreren kan afslutte et parti",
        "no_game": "der er intet parti {game}",
        "seq_used": "beskednummer {seq} er allerede brugt: hver besked skal have et højere "
        "nummer end den forrige, og en gammel spilles ikke igen",
        "hello_twice": "du har allerede logget ind: det sker én gang, i den første besked",
        "rate": "for mange beskeder: en spiller sender højst {rate} i sekundet fra alle sine "
        "forbindelser tilsammen",
        "hello_late": "sig, hvem du er, inden {seconds} s: begynd med en logind-besked med din "
        "kode",
        "hello_first": "den første besked skal være en logind-besked med din kode",
        "unknown_token": "den kode tilhører ingen i denne klasse: bed din lærer om din egen",
        "door_full": "alt for mange forbindelser venter på at logge ind: denne, den ældste, lukkes",
        "backlog": "mere end {n} beskeder ventede på, at du læste dem",
        "too_big": "en besked er højst {limit} byte; denne har {size}",
        "not_json": "en besked er ét JSON-objekt; denne er ikke JSON",
        "not_object": "en besked er et JSON-objekt, ikke en liste eller en tekst",
        "bad_type": "en beskeds art er én af: {types}",
        "bad_seq": "en {kind}-besked skal have et løbenummer, et helt tal, der tæller op fra 1",
        "extra_field": "en {kind}-besked har intet felt '{field}'",
        "missing_field": "en {kind}-besked skal have feltet '{field}'",
        "bad_text": "i en {kind}-besked er feltet '{field}' tekst som '{example}'",
        "bad_whole": "i en {kind}-besked er feltet '{field}' et helt tal fra {low} til {high}",
        "bad_flag": "i en {kind}-besked er feltet '{field}' sandt eller falsk",
        "bad_size": "i en {kind}-besked er brættets størrelse ikke gyldig: skriv den som 9x5",
        "board_too_big": "i en {kind}-besked: lobbyen spiller på brætter med højst {most} "
        "punkter; {size} har {n}",
        "bad_rules": "i en {kind}-besked er reglerne én af: {choices}",
        "bad_clock": "i en {kind}-besked er uret minutter og sekunder pr. træk, som '5+3' (1 "
        "til 180 minutter)",
        "bad_name": "en spillers navn er 1 til 40 bogstaver, cifre eller tegnene _.@-; fik {name}",
        "unrated_aborted": "et afbrudt parti bliver ikke ratet",
        "unrated_turns": "et parti bliver ratet, når hver side har spillet {n} træk",
        "unrated_pair": "{white} og {black} har spillet {n} ratede partier mod hinanden inden "
        "for de sidste {hours} timer, det højeste antal, der tæller",
        "unrated_unranked": "partiet var ikke ratet",
    },
    "de": {
        "end_resigned": "{side} hat aufgegeben",
        "end_timeout": "{side} hat die Zeit überschritten",
        "end_agreed": "von beiden Spielern vereinbart",
        "end_instructor": "von der Lehrkraft {name} beendet",
        "end_no_first": "abgebrochen: {side} hat nicht binnen {minutes} Minuten einen ersten Zug "
        "gespielt",
        "end_none_back": "abgebrochen: die Spieler sind nicht binnen {minutes} Minuten nach einem "
        "Neustart zurückgekommen",
        "end_not_back": "{side} ist nicht binnen {minutes} Minuten nach dem Neustart der Lobby "
        "zurückgekommen",
        "not_a_player": "{name} spielt nicht in Partie {game} mit: nur ihre Spieler handeln darin",
        "over": "die Partie {game} ist vorbei",
        "wrong_ply": "dieser Zug gehört zu Zug {ply} der Partie {game}, die bei Zug {now} steht: "
        "eine alte oder wiederholte Nachricht",
        "not_your_turn": "in Partie {game} ist {side} am Zug, nicht du",
        "time_ran_out": "deine Zeit in Partie {game} ist abgelaufen",
        "illegal": "dieser Zug ist hier nicht regelgerecht",
        "no_draw_offer": "dein Gegner hat in Partie {game} kein Remis angeboten",
        "elsewhere": "du hast dich woanders neu verbunden; diese Verbindung ist geschlossen",
        "host_left": "{name} hat die Lobby verlassen",
        "expired": "sie wurde nicht innerhalb von {minutes} Minuten angenommen",
        "games_cap_you": "du spielst schon {n} Partien, die meisten auf einmal: beende zuerst eine",
        "games_cap": "{name} spielt schon {n} Partien, die meisten auf einmal: erst muss eine "
        "enden",
        "invite_self": "du kannst dich nicht selbst einladen: lade einen Mitschüler ein oder per "
        "Link",
        "no_such_player": "in dieser Klasse heißt niemand {name}",
        "invites_out": "du hast {n} offene Einladungen, die meisten auf einmal: warte auf eine "
        "Antwort",
        "invites_in": "auf {name} warten schon {n} Einladungen: versuche es später noch einmal",
        "not_open": "diese Einladung ist nicht offen: sie wurde angenommen, zurückgezogen oder "
        "nie ausgesprochen",
        "own_invitation": "das ist deine eigene Einladung: ein Mitschüler nimmt sie an",
        "not_for_you": "diese Einladung ist für {name}, nicht für dich",
        "no_live_game": "es gibt keine laufende Partie {game}",
        "instructor_class_view": "nur die Lehrkraft darf alle Partien der Klasse sehen",
        "instructor_end_game": "nur die Lehrkraft darf eine Partie beenden",
        "no_game": "es gibt keine Partie {game}",
        "seq_used": "die Nachrichtennummer {seq} wurde schon benutzt: jede Nachricht braucht "
        "eine höhere Nummer als die letzte, und eine alte wird nicht noch einmal gespielt",
        "hello_twice": "du hast dich schon angemeldet: die Anmeldung kommt einmal, als erste "
        "Nachricht",
        "rate": "zu viele Nachrichten: ein Spieler sendet höchstens {rate} pro Sekunde, von "
        "allen seinen Verbindungen zusammen",
        "hello_late": "sag innerhalb von {seconds} s, wer du bist: sende eine Anmeldung mit "
        "deinem Zugangscode",
        "hello_first": "die erste Nachricht muss die Anmeldung mit deinem Zugangscode sein",
        "unknown_token": "dieser Zugangscode gehört niemandem in dieser Klasse: frage deine "
        "Lehrkraft nach deinem",
        "door_full": "zu viele Verbindungen warten auf die Anmeldung: diese, die älteste, wird "
        "geschlossen",
        "backlog": "mehr als {n} Nachrichten warteten darauf, von dir gelesen zu werden",
        "too_big": "eine Nachricht hat höchstens {limit} Byte; diese hat {size}",
        "not_json": "eine Nachricht ist ein JSON-Objekt; diese ist kein JSON",
        "not_object": "eine Nachricht ist ein JSON-Objekt, keine Liste und keine Zeichenkette",
        "bad_type": "die Art einer Nachricht ist eine von: {types}",
        "bad_seq": "eine {kind}-Nachricht braucht eine laufende Nummer, eine ganze Zahl ab 1",
        "extra_field": "eine {kind}-Nachricht hat kein Feld '{field}'",
        "missing_field": "eine {kind}-Nachricht braucht das Feld '{field}'",
        "bad_text": "in einer {kind}-Nachricht ist das Feld '{field}' eine Zeichenkette wie "
        "'{example}'",
        "bad_whole": "in einer {kind}-Nachricht ist das Feld '{field}' eine ganze Zahl von {low} "
        "bis {high}",
        "bad_flag": "in einer {kind}-Nachricht ist das Feld '{field}' wahr oder falsch",
        "bad_size": "in einer {kind}-Nachricht ist die Brettgröße ungültig: schreibe sie wie 9x5",
        "board_too_big": "in einer {kind}-Nachricht: die Lobby spielt auf Brettern mit höchstens "
        "{most} Punkten; {size} hat {n}",
        "bad_rules": "in einer {kind}-Nachricht sind die Regeln eine von: {choices}",
        "bad_clock": "in einer {kind}-Nachricht ist die Uhr Minuten und Sekunden pro Zug, wie "
        "'5+3' (1 bis 180 Minuten)",
        "bad_name": "der Name eines Spielers hat 1 bis 40 Buchstaben, Ziffern oder die Zeichen "
        "_.@-; erhalten: {name}",
        "unrated_aborted": "eine abgebrochene Partie wird nicht gewertet",
        "unrated_turns": "eine Partie wird gewertet, sobald jede Seite {n} Züge gespielt hat",
        "unrated_pair": "{white} und {black} haben in den letzten {hours} Stunden {n} gewertete "
        "Partien gegeneinander gespielt, die meisten, die zählen",
        "unrated_unranked": "die Partie war nicht gewertet",
    },
    "cs": {
        "end_resigned": "{side} se vzdal",
        "end_timeout": "{side} překročil čas",
        "end_agreed": "dohodnuto oběma hráči",
        "end_instructor": "ukončeno učitelem {name}",
        "end_no_first": "přerušeno: {side} nezahrál první tah do {minutes} minut",
        "end_none_back": "přerušeno: hráči se do {minutes} minut po restartu nevrátili",
        "end_not_back": "{side} se do {minutes} minut po restartu lobby nevrátil",
        "not_a_player": "{name} nehraje v partii {game}: jednat v ní smějí jen její hráči",
        "over": "partie {game} skončila",
        "wrong_ply": "tento tah patří k tahu {ply} partie {game}, která je u tahu {now}: stará "
        "nebo opakovaná zpráva",
        "not_your_turn": "v partii {game} je na tahu {side}, ne vy",
        "time_ran_out": "váš čas v partii {game} vypršel",
        "illegal": "tento tah zde není povolený",
        "no_draw_offer": "soupeř vám v partii {game} nenabídl remízu",
        "elsewhere": "připojili jste se znovu odjinud; toto spojení je uzavřeno",
        "host_left": "{name} opustil lobby",
        "expired": "nebylo přijato do {minutes} minut",
        "games_cap_you": "už hrajete {n} partie, nejvíc najednou: nejprve jednu dohrajte",
        "games_cap": "{name} už hraje {n} partie, nejvíc najednou: nejprve musí jedna skončit",
        "invite_self": "nemůžete pozvat sami sebe: pozvěte spolužáka nebo odkazem",
        "no_such_player": "v této třídě se nikdo nejmenuje {name}",
        "invites_out": "máte {n} otevřených pozvání, nejvíc najednou: počkejte na odpověď",
        "invites_in": "na hráče {name} už čeká {n} pozvání: zkuste to později",
        "not_open": "toto pozvání není otevřené: bylo přijato, staženo, nebo nikdy nevzniklo",
        "own_invitation": "to je vaše vlastní pozvání: přijímá ho spolužák",
        "not_for_you": "toto pozvání je pro hráče {name}, ne pro vás",
        "no_live_game": "žádná probíhající partie {game} neexistuje",
        "instructor_class_view": "partie celé třídy smí vidět jen učitel",
        "instructor_end_game": "partii smí ukončit jen učitel",
        "no_game": "partie {game} neexistuje",
        "seq_used": "číslo zprávy {seq} už bylo použito: každá zpráva potřebuje vyšší číslo než "
        "poslední a stará se znovu nehraje",
        "hello_twice": "už jste se přihlásili: přihlášení se posílá jednou, jako první",
        "rate": "příliš mnoho zpráv: jeden hráč posílá nejvýše {rate} za sekundu, ze všech "
        "svých spojení dohromady",
        "hello_late": "řekněte do {seconds} s, kdo jste: pošlete přihlášení se svým kódem",
        "hello_first": "první zprávou musí být přihlášení s vaším kódem",
        "unknown_token": "tento kód nepatří nikomu v této třídě: požádejte učitele o svůj",
        "door_full": "na přihlášení čeká příliš mnoho spojení: toto, nejstarší, se zavírá",
        "backlog": "více než {n} zpráv čekalo, až si je přečtete",
        "too_big": "zpráva má nejvýše {limit} bajtů; tato má {size}",
        "not_json": "zpráva je jeden objekt JSON; tato není JSON",
        "not_object": "zpráva je objekt JSON, ne seznam ani řetězec",
        "bad_type": "druh zprávy je jeden z: {types}",
        "bad_seq": "zpráva {kind} potřebuje pořadové číslo, celé číslo počítané od 1",
        "extra_field": "zpráva {kind} nemá pole '{field}'",
        "missing_field": "zpráva {kind} potřebuje pole '{field}'",
        "bad_text": "ve zprávě {kind} je pole '{field}' řetězec jako '{example}'",
        "bad_whole": "ve zprávě {kind} je pole '{field}' celé číslo od {low} do {high}",
        "bad_flag": "ve zprávě {kind} je pole '{field}' pravda, nebo nepravda",
        "bad_size": "ve zprávě {kind} není velikost desky platná: zapište ji jako 9x5",
        "board_too_big": "ve zprávě {kind}: lobby hraje na deskách s nejvýše {most} body; "
        "{size} má {n}",
        "bad_rules": "ve zprávě {kind} jsou pravidla jedna z: {choices}",
        "bad_clock": "ve zprávě {kind} jsou hodiny minuty a sekundy na tah, jako '5+3' (1 až 180 "
        "minut)",
        "bad_name": "jméno hráče má 1 až 40 písmen, číslic nebo znaků _.@-; přišlo: {name}",
        "unrated_aborted": "přerušená partie se nehodnotí",
        "unrated_turns": "partie se hodnotí, až každá strana zahraje {n} tahy",
        "unrated_pair": "{white} a {black} spolu za posledních {hours} hodin odehráli {n} "
        "hodnocené partie, nejvíc, kolik se počítá",
        "unrated_unranked": "partie nebyla hodnocená",
    },
}
#: A side, as each language says it inside a sentence.
SIDES = {
    "en": {"white": "white", "black": "black"},
    "da": {"white": "hvid", "black": "sort"},
    "de": {"white": "Weiß", "black": "Schwarz"},
    "cs": {"white": "bílý", "black": "černý"},
}
_VALUE = re.compile(r"\{(\w+)\}")
#: The endings the lobby declares (a resignation, a clock, the instructor, a restart), read back
#: from the outcome's English words into a code and its values.
DECLARED = (
    ("end_resigned", re.compile(r"(?P<side>white|black) resigned")),
    ("end_timeout", re.compile(r"(?P<side>white|black) ran out of time")),
    ("end_agreed", re.compile(r"agreed by both players")),
    ("end_instructor", re.compile(r"ended by the instructor (?P<name>.+)")),
    (
        "end_no_first",
        re.compile(r"aborted: (?P<side>white|black) did not play a first turn within "
                   r"(?P<minutes>[0-9.]+) minutes"),
    ),
    (
        "end_none_back",
        re.compile(r"aborted: the players did not come back within (?P<minutes>[0-9.]+) minutes "
                   r"of a restart"),
    ),
    (
        "end_not_back",
        re.compile(r"(?P<side>white|black) did not come back within (?P<minutes>[0-9.]+) minutes "
                   r"of the lobby's restart"),
    ),
)  # fmt: skip


def declared(reason: str) -> tuple[str, dict] | None:
    """The code and values of an ending the lobby declared, from its English words, or None."""
    for code, pattern in DECLARED:
        m = pattern.fullmatch(reason)
        if m:
            return code, m.groupdict()
    return None


def render(language: str, code: str | None, params: dict) -> str | None:
    """The sentence of ``code`` in ``language`` with its values, as the lobby writes it (lower
    case, no full stop), or None for a code the language lacks."""
    template = WORDS.get(language, {}).get(code) if code else None
    if template is None:
        return None
    sides = SIDES.get(language, SIDES["en"])

    def value(m: re.Match) -> str:
        v = params.get(m[1], m[0])
        return sides.get(v, v) if m[1] == "side" else str(v)

    return _VALUE.sub(value, template)


def say(language: str, code: str | None, params: dict | None, english: str) -> str:
    """A sentence for a person: the code's in ``language``, else the ``english`` one that came
    with it; capitalised, with a full stop."""
    text = render(language, code, params or {})
    text = english if text is None else text
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "…")) else ".")


class Said(ValueError):
    """A sentence the lobby says by code: ``code``, its values ``params``, and (``str``) the
    English sentence."""

    def __init__(self, code: str, **params):
        self.code, self.params = code, params
        super().__init__(code)

    def __str__(self) -> str:
        return render("en", self.code, self.params) or self.code

    def fields(self) -> dict:
        """The message's fields for it: the English sentence, its code and its values."""
        return {"message": str(self), "code": self.code, "params": self.params}
