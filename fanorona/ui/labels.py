"""The interactive board's words in English, Danish, German and Czech.

Every button, chooser, legend entry and status sentence is a template here, so the controller,
the widget and the review never hold text of their own; so is why a game ended (``ending``).
The reasons the rules package gives for an illegal step are English error messages, shared with
notebooks; the board says those a click meets in its own language (``reason``).
"""

from __future__ import annotations

import re

#: The languages offered, with their own names for the language chooser.
LANGUAGES = {"en": "English", "da": "Dansk", "de": "Deutsch", "cs": "Čeština"}

LABELS = {
    "en": {
        # buttons, choosers and overlays
        "undo": "Undo turn",
        "undo_step": "Undo step",
        "redo": "Redo",
        "new_game": "New game",
        "end_turn": "End turn",
        "typed": "Type a turn",
        "approach": "Approach",
        "withdrawal": "Withdrawal",
        "size": "Size",
        "rules": "Rules",
        "position": "Position",
        "load": "Load",
        "load_diagram": "Load diagram",
        "computer": "Computer",
        "nobody": "nobody",
        "both": "both",
        "level": "Level",
        "perfect": "perfect",
        "computer_move": "Computer move",
        "delay": "Step delay",
        "replay": "Turn",
        "export": "Export",
        "import": "Import",
        "language": "Language",
        "strings": "Strings",
        "legal": "Legal moves",
        "names": "Point names",
        "strong": "Strong points",
        "large": "Large",
        "moves": "Moves",
        "more": "Positions and game record",
        "white": "white",
        "black": "black",
        "preset_standard": "standard",
        "preset_simple": "simple",
        "preset_solved": "solved",
        "preset_czech": "Czech",
        "preset_danish": "Danish",
        "preset_custom": "custom",
        # the legend: one meaning for each mark
        "legend_must": "must capture",
        "legend_selected": "selected",
        "legend_target": "can go here",
        "legend_approach": "approach (A) takes these",
        "legend_withdrawal": "withdrawal (W) takes these",
        "legend_path": "this turn's steps",
        "legend_last": "last turn",
        "legend_waiting": "the step waiting for its capture to be chosen",
        # the headline and the details line
        "turn": "{side} to move",
        "picture": (
            "Fanorona board {size}, {side} to move. White stones: {white}. Black stones: {black}."
        ),
        "picture_must": " Must capture: {points}.",
        "stones": "stones: white {white}, black {black}",
        "quiet": "turns without capture: {quiet} of {limit}",
        "quiet_nolimit": "turns without capture: {quiet}",
        "win": "{side} wins: {reason}",
        "draw": "draw: {reason}",
        "search": "search: {info}",
        # what a click or a button did
        "select": "{point} selected: click a teal dot to move there",
        "must_capture": "capture is compulsory: move a stone with an orange dot ({points})",
        "no_stone": "there is no stone on {point}",
        "not_yours": "the stone on {point} belongs to the opponent",
        "stuck": "the stone on {point} has no legal step",
        "illegal": "not allowed: {reason}",
        "choose": (
            "{step} captures two ways: click a stone marked A (red) to capture by approach, "
            "or one marked W (blue) to capture by withdrawal"
        ),
        "chain": "{point} may capture again: click a teal dot, or End turn",
        "played": "played {move}",
        "computer_level": "level {level}",
        "computer_perfect": "perfect {size}",
        "thinking": "{name} is thinking",
        "preparing": "{name} is getting ready (the first time only)",
        "playing": "{name} is playing {move}",
        "computer_played": "{name} played {move}",
        "busy": "wait: the computer is moving",
        "busy_named": "wait: it is {name}'s turn",
        "replaying": (
            "showing the position after {n} of {total} turns: move the slider to the end to play on"
        ),
        "nothing_to_undo": "nothing to undo",
        "nothing_to_redo": "nothing to redo",
        "no_choice": "there is no capture to choose now",
        "loaded": "loaded {name}",
        "load_error": "cannot load: {reason}",
        "imported": "game record read: {n} turns",
        "exported": "game record written below",
        "import_error": "cannot read the game record: {reason}",
        "new": "new game: {size}, {rules} rules",
        "deselected": "selection cleared",
        "cancelled": "choice cancelled",
        "undone": "took back {move}",
        "redone": "replayed {move}",
        "step_undone": "took back the step {move}",
        "step_not_yours": (
            "Undo step takes back steps of a person's turn; the last turn was the computer's: "
            "use Undo turn"
        ),
        "redo_failed": "cannot replay {move}: {reason}",
        "game_over": "the game is over",
        "computer_error": "the computer failed: {reason}",
        "opponent_says": "{text}",
        "turn_ended": "turn ended: {move}",
        "computer_finished": "{name} finished the chain: {move}",
        "computer_stopped": "{name} ended the chain where it stood: {move}",
        "computer_paused": "the computer plays {side}: press Computer move when it should move",
        "computer_nothing": "the computer plays neither side to move now",
        "level_changed": (
            "the perfect player needs a small board under the standard rules: level {level} "
            "plays instead"
        ),
        "perfect_fallback": (
            "this position is not in the perfect player's table: level {level} plays instead"
        ),
        "model_error": "the model's {member} failed: {reason}",
        "search_table": "looked up in the endgame table: {info}",
        "progress": "{what}: {percent}% done",
        "progress_left": ", about {left} left",
        # why a game ended (the side is the loser's), and the review of a finished game
        "end_no_stones": "{side} has no stones left",
        "end_no_legal_turn": "{side} has no legal turn",
        "end_quiet_draw": "{quiet} turns in a row without a capture",
        "end_adjudicated": "adjudicated on stones, {white} white to {black} black",
        "review": "Review",
        "review_tip": "the computer's verdict on the game",
        "review_mistake": "Mistake",
        "review_start": "play a game, then press Review",
        "review_found": "mistakes: {mistakes} in {turns} turns, judged by {judge}",
        "review_table": "the solved {size} table",
        "review_search": "a search {depth} turns deep",
        "review_turn": "{move}. {side} {played}",
        "review_verdict": "{turn}: before it {before}; after it {after}",
        "review_better": "{verdict}; a mistake: better {better}",
        "review_wins": "{side} wins in {n} turns",
        "review_wins_one": "{side} wins in 1 turn",
        "review_draw": "a draw with best play",
        "review_even": "even",
        "review_ahead": "{side} {stones} stones ahead",
        "decimal_point": ".",
        # the rules package's reasons a click meets, said again in the board's language
        "why_weak": "no line joins {a} and {b}: {weak} is a weak point, without diagonals",
        "why_not_neighbours": "{a} and {b} are not neighbours on a line",
        "why_taken": "{b} is not empty",
        "why_no_stone": "there is no stone on {a}",
        "why_not_yours": "the stone on {a} is {stone}, but it is {side}'s turn",
        "why_chain_stone": (
            "a capture chain is in progress: only the stone on {a} may move, or end the turn"
        ),
        "why_chain_captures": "every step of a chain must capture, and {a}-{b} captures nothing",
        "why_compulsory": "capture is compulsory, and {side} can capture: {turns}",
        "why_return": "the stone has already been on {a} this turn, and a chain may not return",
        "why_same_direction": "the chain may not go {direction} twice in a row",
        "why_direction_used": "the chain has already gone {direction} this turn",
        "why_no_chain": "there is no capture chain in progress to end",
        "why_not_legal": "{a}-{b} is not a legal step",
        "east": "east",
        "north-east": "north-east",
        "north": "north",
        "north-west": "north-west",
        "west": "west",
        "south-west": "south-west",
        "south": "south",
        "south-east": "south-east",
    },
    "da": {
        "undo": "Fortryd træk",
        "undo_step": "Fortryd skridt",
        "redo": "Gentag",
        "new_game": "Nyt spil",
        "end_turn": "Afslut træk",
        "typed": "Skriv et træk",
        "approach": "Pres (tilnærmelse)",
        "withdrawal": "Sug (tilbagetrækning)",
        "size": "Størrelse",
        "rules": "Regler",
        "position": "Stilling",
        "load": "Indlæs",
        "load_diagram": "Indlæs diagram",
        "computer": "Computer",
        "nobody": "ingen",
        "both": "begge",
        "level": "Niveau",
        "perfect": "perfekt",
        "computer_move": "Computerens træk",
        "delay": "Pause",
        "replay": "Træk",
        "export": "Eksportér",
        "import": "Importér",
        "language": "Sprog",
        "strings": "Strenge",
        "legal": "Lovlige træk",
        "names": "Punktnavne",
        "strong": "Stærke punkter",
        "large": "Stor",
        "moves": "Træk",
        "more": "Stillinger og spilreferat",
        "white": "hvid",
        "black": "sort",
        "preset_standard": "standard",
        "preset_simple": "simpel",
        "preset_solved": "løst",
        "preset_czech": "tjekkisk",
        "preset_danish": "dansk",
        "preset_custom": "egne",
        "legend_must": "skal slå",
        "legend_selected": "valgt",
        "legend_target": "kan flytte hertil",
        "legend_approach": "pres (A) indfanger disse",
        "legend_withdrawal": "sug (W) indfanger disse",
        "legend_path": "dette træks skridt",
        "legend_last": "sidste træk",
        "legend_waiting": "skridtet der venter på valget af slag",
        "turn": "{side} er i trækket",
        "picture": (
            "Fanorona-bræt {size}, {side} er i trækket. Hvide sten: {white}. Sorte sten: {black}."
        ),
        "picture_must": " Skal indfange: {points}.",
        "stones": "brikker: hvid {white}, sort {black}",
        "quiet": "træk uden slag: {quiet} af {limit}",
        "quiet_nolimit": "træk uden slag: {quiet}",
        "win": "{side} vinder: {reason}",
        "draw": "remis: {reason}",
        "search": "søgning: {info}",
        "select": "{point} er valgt: klik på en turkis prik for at flytte dertil",
        "must_capture": "slag er tvunget: flyt en brik med orange prik ({points})",
        "no_stone": "der står ingen brik på {point}",
        "not_yours": "brikken på {point} tilhører modstanderen",
        "stuck": "brikken på {point} har intet lovligt skridt",
        "illegal": "ikke tilladt: {reason}",
        "choose": (
            "{step} indfanger på to måder: klik på en sten mærket A (rød) for pres, "
            "eller på en sten mærket W (blå) for sug"
        ),
        "chain": "{point} kan slå igen: klik på en turkis prik, eller Afslut træk",
        "played": "spillede {move}",
        "computer_level": "niveau {level}",
        "computer_perfect": "perfekt {size}",
        "thinking": "{name} tænker",
        "preparing": "{name} gør sig klar (kun første gang)",
        "playing": "{name} spiller {move}",
        "computer_played": "{name} spillede {move}",
        "busy": "vent: computeren trækker",
        "busy_named": "vent: det er {name}s tur",
        "replaying": (
            "viser stillingen efter {n} af {total} træk: flyt skyderen til enden for at spille"
            " videre"
        ),
        "nothing_to_undo": "intet at fortryde",
        "nothing_to_redo": "intet at gentage",
        "no_choice": "der er intet slag at vælge nu",
        "loaded": "indlæste {name}",
        "load_error": "kan ikke indlæse: {reason}",
        "imported": "spilreferat læst: {n} træk",
        "exported": "spilreferatet står nedenfor",
        "import_error": "kan ikke læse spilreferatet: {reason}",
        "new": "nyt spil: {size}, regler: {rules}",
        "deselected": "valget er fjernet",
        "cancelled": "valget er annulleret",
        "undone": "tog {move} tilbage",
        "redone": "spillede {move} igen",
        "step_undone": "tog skridtet {move} tilbage",
        "step_not_yours": (
            "Fortryd skridt tager skridt i en persons træk tilbage; sidste træk var computerens: "
            "brug Fortryd træk"
        ),
        "redo_failed": "kan ikke spille {move} igen: {reason}",
        "game_over": "spillet er slut",
        "computer_error": "computeren fejlede: {reason}",
        "opponent_says": "{text}",
        "turn_ended": "trækket er afsluttet: {move}",
        "computer_finished": "{name} gjorde kæden færdig: {move}",
        "computer_stopped": "{name} stoppede kæden, hvor den stod: {move}",
        "computer_paused": "computeren spiller {side}: tryk Computerens træk, når den skal trække",
        "computer_nothing": "computeren spiller ikke den side, der er i trækket",
        "level_changed": (
            "den perfekte spiller kræver et lille bræt med standardregler: niveau {level} "
            "spiller i stedet"
        ),
        "perfect_fallback": (
            "stillingen findes ikke i den perfekte spillers tabel: niveau {level} spiller i stedet"
        ),
        "model_error": "modellens {member} fejlede: {reason}",
        "search_table": "slået op i slutspilstabellen: {info}",
        "progress": "{what}: {percent}% færdig",
        "progress_left": ", cirka {left} tilbage",
        "end_no_stones": "{side} har ingen brikker tilbage",
        "end_no_legal_turn": "{side} har intet lovligt træk",
        "end_quiet_draw": "{quiet} træk i træk uden slag",
        "end_adjudicated": "afgjort på brikker, hvid {white} mod sort {black}",
        "review": "Gennemgang",
        "review_tip": "computerens vurdering af partiet",
        "review_mistake": "Fejl",
        "review_start": "spil et parti, og tryk så på Gennemgang",
        "review_found": "fejl: {mistakes} i {turns} træk, vurderet af {judge}",
        "review_table": "den løste tabel for {size}",
        "review_search": "en søgning {depth} træk frem",
        "review_turn": "{move}. {side} {played}",
        "review_verdict": "{turn}: før trækket {before}; efter det {after}",
        "review_better": "{verdict}; en fejl: bedre er {better}",
        "review_wins": "{side} vinder i {n} træk",
        "review_wins_one": "{side} vinder i 1 træk",
        "review_draw": "remis ved bedste spil",
        "review_even": "lige",
        "review_ahead": "{side} {stones} brikker foran",
        "decimal_point": ",",
        "why_weak": "ingen linje forbinder {a} og {b}: {weak} er et svagt punkt uden diagonaler",
        "why_not_neighbours": "{a} og {b} er ikke naboer på en linje",
        "why_taken": "{b} er ikke tomt",
        "why_no_stone": "der står ingen brik på {a}",
        "why_not_yours": "brikken på {a} er {stone}, men {side} er i trækket",
        "why_chain_stone": (
            "en slagkæde er i gang: kun brikken på {a} må flytte, eller afslut trækket"
        ),
        "why_chain_captures": "hvert skridt i en kæde skal slå, og {a}-{b} slår intet",
        "why_compulsory": "slag er tvunget, og {side} kan slå: {turns}",
        "why_return": (
            "brikken har allerede stået på {a} i dette træk, og en kæde må ikke vende tilbage"
        ),
        "why_same_direction": "kæden må ikke gå mod {direction} to gange i træk",
        "why_direction_used": "kæden er allerede gået mod {direction} i dette træk",
        "why_no_chain": "der er ingen slagkæde i gang at afslutte",
        "why_not_legal": "{a}-{b} er ikke et lovligt skridt",
        "east": "øst",
        "north-east": "nordøst",
        "north": "nord",
        "north-west": "nordvest",
        "west": "vest",
        "south-west": "sydvest",
        "south": "syd",
        "south-east": "sydøst",
    },
    "de": {
        "undo": "Zug zurück",
        "undo_step": "Schritt zurück",
        "redo": "Wiederholen",
        "new_game": "Neues Spiel",
        "end_turn": "Zug beenden",
        "typed": "Zug eintippen",
        "approach": "Annäherung",
        "withdrawal": "Rückzug",
        "size": "Größe",
        "rules": "Regeln",
        "position": "Stellung",
        "load": "Laden",
        "load_diagram": "Diagramm laden",
        "computer": "Computer",
        "nobody": "niemand",
        "both": "beide",
        "level": "Stufe",
        "perfect": "perfekt",
        "computer_move": "Computer zieht",
        "delay": "Pause",
        "replay": "Zug",
        "export": "Exportieren",
        "import": "Importieren",
        "language": "Sprache",
        "strings": "Reihen",
        "legal": "Erlaubte Züge",
        "names": "Punktnamen",
        "strong": "Starke Punkte",
        "large": "Groß",
        "moves": "Züge",
        "more": "Stellungen und Partie",
        "white": "Weiß",
        "black": "Schwarz",
        "preset_standard": "Standard",
        "preset_simple": "einfach",
        "preset_solved": "gelöst",
        "preset_czech": "tschechisch",
        "preset_danish": "dänisch",
        "preset_custom": "eigene",
        "legend_must": "muss schlagen",
        "legend_selected": "gewählt",
        "legend_target": "kann hierhin",
        "legend_approach": "Annäherung (A) schlägt diese",
        "legend_withdrawal": "Rückzug (W) schlägt diese",
        "legend_path": "Schritte dieses Zuges",
        "legend_last": "letzter Zug",
        "legend_waiting": "der Schritt, der auf die Wahl des Schlagens wartet",
        "turn": "{side} ist am Zug",
        "picture": (
            "Fanorona-Brett {size}, {side} ist am Zug. "
            "Weiße Steine: {white}. Schwarze Steine: {black}."
        ),
        "picture_must": " Muss schlagen: {points}.",
        "stones": "Steine: Weiß {white}, Schwarz {black}",
        "quiet": "Züge ohne Schlagen: {quiet} von {limit}",
        "quiet_nolimit": "Züge ohne Schlagen: {quiet}",
        "win": "{side} gewinnt: {reason}",
        "draw": "Remis: {reason}",
        "search": "Suche: {info}",
        "select": "{point} gewählt: klicke auf einen türkisen Punkt, um dorthin zu ziehen",
        "must_capture": "Schlagen ist Pflicht: ziehe einen Stein mit orangem Punkt ({points})",
        "no_stone": "auf {point} steht kein Stein",
        "not_yours": "der Stein auf {point} gehört dem Gegner",
        "stuck": "der Stein auf {point} hat keinen erlaubten Schritt",
        "illegal": "nicht erlaubt: {reason}",
        "choose": (
            "{step} schlägt auf zwei Arten: klicke auf einen mit A markierten Stein (rot) für "
            "Annäherung oder auf einen mit W markierten (blau) für Rückzug"
        ),
        "chain": (
            "{point} kann erneut schlagen: klicke auf einen türkisen Punkt oder auf Zug beenden"
        ),
        "played": "gespielt: {move}",
        "computer_level": "Stufe {level}",
        "computer_perfect": "perfekt {size}",
        "thinking": "{name} denkt nach",
        "preparing": "{name} macht sich bereit (nur beim ersten Mal)",
        "playing": "{name} spielt {move}",
        "computer_played": "{name} spielte {move}",
        "busy": "bitte warten: der Computer zieht",
        "busy_named": "bitte warten: {name} ist am Zug",
        "replaying": (
            "Stellung nach {n} von {total} Zügen: schiebe den Regler ans Ende, um weiterzuspielen"
        ),
        "nothing_to_undo": "nichts zurückzunehmen",
        "nothing_to_redo": "nichts zu wiederholen",
        "no_choice": "jetzt ist kein Schlag zu wählen",
        "loaded": "geladen: {name}",
        "load_error": "kann nicht laden: {reason}",
        "imported": "Partie gelesen: {n} Züge",
        "exported": "die Partie steht unten",
        "import_error": "kann die Partie nicht lesen: {reason}",
        "new": "neues Spiel: {size}, Regeln: {rules}",
        "deselected": "Auswahl aufgehoben",
        "cancelled": "Wahl abgebrochen",
        "undone": "zurückgenommen: {move}",
        "redone": "wiederholt: {move}",
        "step_undone": "Schritt {move} zurückgenommen",
        "step_not_yours": (
            "Schritt zurück nimmt Schritte eines Menschen zurück; der letzte Zug war der des "
            "Computers: nutze Zug zurück"
        ),
        "redo_failed": "kann {move} nicht wiederholen: {reason}",
        "game_over": "das Spiel ist vorbei",
        "computer_error": "der Computer ist gescheitert: {reason}",
        "opponent_says": "{text}",
        "turn_ended": "Zug beendet: {move}",
        "computer_finished": "{name} hat die Kette zu Ende gespielt: {move}",
        "computer_stopped": "{name} hat die Kette dort beendet, wo sie stand: {move}",
        "computer_paused": "der Computer spielt {side}: drücke Computer zieht, wenn er ziehen soll",
        "computer_nothing": "der Computer spielt keine der Seiten, die am Zug ist",
        "level_changed": (
            "der perfekte Spieler braucht ein kleines Brett mit Standardregeln: Stufe {level} "
            "spielt stattdessen"
        ),
        "perfect_fallback": (
            "diese Stellung fehlt in der Tabelle des perfekten Spielers: Stufe {level} "
            "spielt stattdessen"
        ),
        "model_error": "{member} des Modells ist gescheitert: {reason}",
        "search_table": "in der Endspieltabelle nachgeschlagen: {info}",
        "progress": "{what}: {percent}% erledigt",
        "progress_left": ", noch etwa {left}",
        "end_no_stones": "{side} hat keine Steine mehr",
        "end_no_legal_turn": "{side} hat keinen erlaubten Zug",
        "end_quiet_draw": "{quiet} Züge in Folge ohne Schlagen",
        "end_adjudicated": "nach Steinen entschieden, Weiß {white} gegen Schwarz {black}",
        "review": "Analyse",
        "review_tip": "das Urteil des Computers über die Partie",
        "review_mistake": "Fehler",
        "review_start": "spiele eine Partie und drücke dann Analyse",
        "review_found": "Fehler: {mistakes} in {turns} Zügen, beurteilt von {judge}",
        "review_table": "der gelösten Tabelle für {size}",
        "review_search": "einer Suche {depth} Züge tief",
        "review_turn": "{move}. {side} {played}",
        "review_verdict": "{turn}: vor dem Zug {before}; danach {after}",
        "review_better": "{verdict}; ein Fehler: besser ist {better}",
        "review_wins": "{side} gewinnt in {n} Zügen",
        "review_wins_one": "{side} gewinnt in 1 Zug",
        "review_draw": "Remis bei bestem Spiel",
        "review_even": "ausgeglichen",
        "review_ahead": "{side} {stones} Steine vorn",
        "decimal_point": ",",
        "why_weak": (
            "keine Linie verbindet {a} und {b}: {weak} ist ein schwacher Punkt ohne Diagonalen"
        ),
        "why_not_neighbours": "{a} und {b} sind keine Nachbarn auf einer Linie",
        "why_taken": "{b} ist nicht frei",
        "why_no_stone": "auf {a} steht kein Stein",
        "why_not_yours": "der Stein auf {a} ist {stone}, aber {side} ist am Zug",
        "why_chain_stone": (
            "eine Schlagkette läuft: nur der Stein auf {a} darf ziehen, oder beende den Zug"
        ),
        "why_chain_captures": "jeder Schritt einer Kette muss schlagen, und {a}-{b} schlägt nichts",
        "why_compulsory": "Schlagen ist Pflicht, und {side} kann schlagen: {turns}",
        "why_return": (
            "der Stein stand in diesem Zug schon auf {a}, und eine Kette darf nicht zurück"
        ),
        "why_same_direction": "die Kette darf nicht zweimal nacheinander nach {direction} gehen",
        "why_direction_used": "die Kette ist in diesem Zug schon nach {direction} gegangen",
        "why_no_chain": "es läuft keine Schlagkette, die zu beenden wäre",
        "why_not_legal": "{a}-{b} ist kein erlaubter Schritt",
        "east": "Osten",
        "north-east": "Nordosten",
        "north": "Norden",
        "north-west": "Nordwesten",
        "west": "Westen",
        "south-west": "Südwesten",
        "south": "Süden",
        "south-east": "Südosten",
    },
    "cs": {
        "undo": "Vrátit tah",
        "undo_step": "Vrátit krok",
        "redo": "Znovu",
        "new_game": "Nová hra",
        "end_turn": "Ukončit tah",
        "typed": "Napsat tah",
        "approach": "Přiblížení",
        "withdrawal": "Odsun (odstoupení)",
        "size": "Velikost",
        "rules": "Pravidla",
        "position": "Pozice",
        "load": "Načíst",
        "load_diagram": "Načíst diagram",
        "computer": "Počítač",
        "nobody": "nikdo",
        "both": "oba",
        "level": "Úroveň",
        "perfect": "dokonalý",
        "computer_move": "Tah počítače",
        "delay": "Prodleva",
        "replay": "Tah",
        "export": "Exportovat",
        "import": "Importovat",
        "language": "Jazyk",
        "strings": "Skupinky",
        "legal": "Povolené tahy",
        "names": "Názvy bodů",
        "strong": "Silné body",
        "large": "Velké",
        "moves": "Tahy",
        "more": "Pozice a záznam hry",
        "white": "bílý",
        "black": "černý",
        "preset_standard": "standardní",
        "preset_simple": "jednoduchá",
        "preset_solved": "vyřešená",
        "preset_czech": "česká",
        "preset_danish": "dánská",
        "preset_custom": "vlastní",
        "legend_must": "musí brát",
        "legend_selected": "vybráno",
        "legend_target": "může sem",
        "legend_approach": "přiblížení (A) bere tyto",
        "legend_withdrawal": "odsun (W) bere tyto",
        "legend_path": "kroky tohoto tahu",
        "legend_last": "poslední tah",
        "legend_waiting": "krok čekající na volbu braní",
        "turn": "na tahu je {side}",
        "picture": (
            "Deska Fanorona {size}, na tahu je {side}. Bílé kameny: {white}. Černé kameny: {black}."
        ),
        "picture_must": " Musí brát: {points}.",
        "stones": "kameny: bílý {white}, černý {black}",
        "quiet": "tahy bez braní: {quiet} z {limit}",
        "quiet_nolimit": "tahy bez braní: {quiet}",
        "win": "{side} vyhrává: {reason}",
        "draw": "remíza: {reason}",
        "search": "hledání: {info}",
        "select": "vybráno {point}: klikněte na tyrkysovou tečku, kam táhnout",
        "must_capture": "braní je povinné: táhněte kamenem s oranžovou tečkou ({points})",
        "no_stone": "na {point} není žádný kámen",
        "not_yours": "kámen na {point} patří soupeři",
        "stuck": "kámen na {point} nemá žádný povolený krok",
        "illegal": "nepovoleno: {reason}",
        "choose": (
            "{step} bere dvěma způsoby: klikněte na kámen označený A (červený) pro přiblížení "
            "nebo na kámen označený W (modrý) pro odsun"
        ),
        "chain": "{point} může brát znovu: klikněte na tyrkysovou tečku, nebo Ukončit tah",
        "played": "zahráno {move}",
        "computer_level": "počítač (úroveň {level})",
        "computer_perfect": "dokonalý hráč {size}",
        "thinking": "{name} přemýšlí",
        "preparing": "{name} se připravuje (jen poprvé)",
        "playing": "{name} hraje {move}",
        "computer_played": "{name} zahrál {move}",
        "busy": "počkejte: počítač táhne",
        "busy_named": "počkejte: na tahu je {name}",
        "replaying": "pozice po {n} z {total} tahů: posuňte jezdec na konec a hrajte dál",
        "nothing_to_undo": "není co vrátit",
        "nothing_to_redo": "není co opakovat",
        "no_choice": "teď není co vybírat",
        "loaded": "načteno: {name}",
        "load_error": "nelze načíst: {reason}",
        "imported": "záznam hry načten: {n} tahů",
        "exported": "záznam hry je níže",
        "import_error": "záznam hry nelze přečíst: {reason}",
        "new": "nová hra: {size}, pravidla: {rules}",
        "deselected": "výběr zrušen",
        "cancelled": "volba zrušena",
        "undone": "vráceno {move}",
        "redone": "znovu zahráno {move}",
        "step_undone": "vrácen krok {move}",
        "step_not_yours": (
            "Vrátit krok vrací kroky tahu člověka; poslední tah byl tah počítače: "
            "použijte Vrátit tah"
        ),
        "redo_failed": "{move} nelze znovu zahrát: {reason}",
        "game_over": "hra skončila",
        "computer_error": "počítač selhal: {reason}",
        "opponent_says": "{text}",
        "turn_ended": "tah ukončen: {move}",
        "computer_finished": "{name} dohrál řetěz: {move}",
        "computer_stopped": "{name} ukončil řetěz tam, kde stál: {move}",
        "computer_paused": "počítač hraje za {side}: stiskněte Tah počítače, až má táhnout",
        "computer_nothing": "počítač nehraje za stranu, která je na tahu",
        "level_changed": (
            "dokonalý hráč potřebuje malou desku se standardními pravidly: místo něj hraje "
            "úroveň {level}"
        ),
        "perfect_fallback": (
            "tato pozice není v tabulce dokonalého hráče: místo něj hraje úroveň {level}"
        ),
        "model_error": "{member} modelu selhal: {reason}",
        "search_table": "vyhledáno v tabulce koncovek: {info}",
        "progress": "{what}: hotovo {percent} %",
        "progress_left": ", zbývá asi {left}",
        "end_no_stones": "{side} už nemá žádné kameny",
        "end_no_legal_turn": "{side} nemá žádný povolený tah",
        "end_quiet_draw": "{quiet} tahů po sobě bez braní",
        "end_adjudicated": "rozhodnuto podle kamenů, bílý {white} proti černému {black}",
        "review": "Rozbor",
        "review_tip": "hodnocení partie počítačem",
        "review_mistake": "Chyba",
        "review_start": "zahrajte si partii a pak stiskněte Rozbor",
        "review_found": "chyby: {mistakes} v {turns} tazích, hodnotí {judge}",
        "review_table": "vyřešená tabulka pro {size}",
        "review_search": "prohledávání do hloubky {depth} tahů",
        "review_turn": "{move}. {side} {played}",
        "review_verdict": "{turn}: před tahem {before}; po něm {after}",
        "review_better": "{verdict}; chyba: lepší je {better}",
        "review_wins": "{side} vyhraje (tahů do konce: {n})",
        "review_wins_one": "{side} vyhraje příštím tahem",
        "review_draw": "remíza při nejlepší hře",
        "review_even": "vyrovnáno",
        "review_ahead": "{side} vede o {stones} kamene",
        "decimal_point": ",",
        "why_weak": "{a} a {b} nespojuje žádná čára: {weak} je slabý bod bez úhlopříček",
        "why_not_neighbours": "{a} a {b} nejsou sousedé na čáře",
        "why_taken": "{b} není volné",
        "why_no_stone": "na {a} není žádný kámen",
        "why_not_yours": "kámen na {a} je {stone}, ale na tahu je {side}",
        "why_chain_stone": ("probíhá řetěz braní: táhnout smí jen kámen na {a}, nebo ukončete tah"),
        "why_chain_captures": "každý krok řetězu musí brát, a {a}-{b} nebere nic",
        "why_compulsory": "braní je povinné a {side} může brát: {turns}",
        "why_return": "kámen už v tomto tahu stál na {a} a řetěz se nesmí vracet",
        "why_same_direction": "řetěz nesmí jít směrem {direction} dvakrát za sebou",
        "why_direction_used": "řetěz už v tomto tahu šel směrem {direction}",
        "why_no_chain": "neprobíhá žádný řetěz braní, který by šlo ukončit",
        "why_not_legal": "{a}-{b} není povolený krok",
        "east": "na východ",
        "north-east": "na severovýchod",
        "north": "na sever",
        "north-west": "na severozápad",
        "west": "na západ",
        "south-west": "na jihozápad",
        "south": "na jih",
        "south-east": "na jihovýchod",
    },
}


def labels(language: str) -> dict:
    """The label and sentence templates of a language; a clear error for an unknown one."""
    if language not in LABELS:
        raise ValueError(
            f"language must be one of {', '.join(map(repr, LABELS))}; got {language!r}"
        )
    return LABELS[language]


def named_person(name) -> bool:
    """A player's own name (a lobby classmate's), said as spelled: not a level, not a side."""
    return isinstance(name, str) and name not in ("white", "black", "computer")


def say(language: str, key: str, **values) -> str:
    """A sentence in a language, capitalised unless a point name leads; a side's colour is
    translated too, and so is a value given as words of its own, ``(key, values)`` (the
    computer's name: ``("computer_level", {"level": 3})``)."""
    text = labels(language)
    person = named_person(values.get("name"))  # before a level's words are put in its place
    if "side" in values:
        values["side"] = text[values["side"]]
    for name, value in values.items():
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
            values[name] = text[value[0]].format(**value[1])
    if "reason" in values:  # the rules package's reasons are said in the language too
        values["reason"] = reason(language, values["reason"])
    sentence = text[key].format(**values)
    if text[key].startswith(("{point}", "{step}")):  # a point name leads: "d3 selected", never "D3"
        return sentence
    if text[key].startswith("{name}") and person:
        return sentence  # a classmate's name as the lobby spells it: "ann played", never "Ann"
    return sentence[:1].upper() + sentence[1:]


#: The sentence of each way a game ends by the rules or on stones (a declared ending keeps the
#: players' own words).
_ENDINGS = {
    "no_stones": "end_no_stones",
    "no_legal_turn": "end_no_legal_turn",
    "quiet_draw": "end_quiet_draw",
    "adjudicated": "end_adjudicated",
}


def ending(language: str, outcome) -> str:
    """Why a game ended, in a language: made from the outcome's ``termination`` (a
    ``fanorona.Termination``) and its counts; a model's own outcome without one, or an ending the
    players declared, keeps its ``reason`` as it is."""
    termination = getattr(getattr(outcome, "termination", None), "value", None)
    if termination not in _ENDINGS:
        return outcome.reason
    text = labels(language)
    counts = outcome.counts
    loser = {"white": "black", "black": "white"}.get(outcome.winner or "", "white")
    return text[_ENDINGS[termination]].format(
        side=text[loser],
        quiet=counts[0] if counts else "",
        white=counts[0] if counts else "",
        black=counts[1] if len(counts) > 1 else "",
    )


#: The rules package's reasons for refusing a step (``fanorona.IllegalMoveError``) that a click
#: can meet, read back into their parts so that the board says them in its own language; the
#: English templates above are these sentences, and a test compares them with the package's.
_REASONS = [
    (re.compile(pattern), key)
    for pattern, key in (
        (
            r"no line joins (?P<a>\w+) and (?P<b>\w+): (?P<weak>\w+) is a weak point, without "
            r"diagonals",
            "why_weak",
        ),
        (r"(?P<a>\w+) and (?P<b>\w+) are not neighbours on a line", "why_not_neighbours"),
        (r"(?P<b>\w+) is not empty", "why_taken"),
        (r"there is no stone on (?P<a>\w+)", "why_no_stone"),
        (
            r"the stone on (?P<a>\w+) is (?P<stone>white|black), but it is (?P<side>white|black)'s "
            r"turn",
            "why_not_yours",
        ),
        (
            r"a capture chain is in progress: only the stone on (?P<a>\w+) may move, or end the "
            r"turn",
            "why_chain_stone",
        ),
        (
            r"every step of a chain must capture, and (?P<a>\w+)-(?P<b>\w+) captures nothing",
            "why_chain_captures",
        ),
        (
            r"capture is compulsory, and (?P<side>white|black) can capture: (?P<turns>[\w, ]+)",
            "why_compulsory",
        ),
        (
            r"the stone has already been on (?P<a>\w+) this turn, and a chain may not return",
            "why_return",
        ),
        (r"the chain may not go (?P<direction>[\w-]+) twice in a row", "why_same_direction"),
        (r"the chain has already gone (?P<direction>[\w-]+) this turn", "why_direction_used"),
        (r"there is no capture chain in progress to end", "why_no_chain"),
        (r"(?P<a>\w+)-(?P<b>\w+) is not a legal step", "why_not_legal"),
    )
]
#: The parts of a reason said in words of the language: colours and the eight directions.
_SAID = {"white", "black", "east", "north-east", "north", "north-west", "west", "south-west"}
_SAID |= {"south", "south-east"}


def reason(language: str, text: str) -> str:
    """A reason the rules package gave, in a language where it is one the board knows; any
    other (a typed turn's notation error, a student's model's) as it was written."""
    if language == "en" or not isinstance(text, str):
        return text
    words = labels(language)
    for pattern, key in _REASONS:
        found = pattern.fullmatch(text)
        if found:
            parts = {
                name: words[value] if value in _SAID else value
                for name, value in found.groupdict().items()
            }
            return words[key].format(**parts)
    return text


def page_language(query: str = "", default: str = "en") -> str:
    """The language a page asks for, as ``lang=da`` in its query string (Voilà hands the page's
    query string to the kernel as the environment variable QUERY_STRING); the default when none or
    unknown.
    """
    from urllib.parse import parse_qs

    asked = parse_qs(query or "").get("lang", [default])[-1].lower()
    return asked if asked in LABELS else default


__all__ = ["LABELS", "LANGUAGES", "ending", "labels", "page_language", "reason", "say"]
