"""The per-game table's oracle (tests/per_game.rs): python-chess replays
each game of the PGN files named and prints one JSON object per game:
its tags, plies, the first plies at which python-chess lets a threefold
or fifty-move claim be made (``can_claim_threefold_repetition``,
``can_claim_fifty_moves``), the first ending it knows (checkmate,
stalemate, insufficient material, fivefold, seventy-five moves) and each
side's latest ``[%clk]`` at or before the first claimable ply. A game
python-chess reports errors for has ``"errors"`` > 0.
"""

import json
import sys

import chess
import chess.pgn

TAGS = ["Site", "Event", "Date", "Round", "White", "Black", "TimeControl", "ECO",
        "Termination", "Result"]


def ending(board):
    if board.is_checkmate():
        return "checkmate", "0-1" if board.turn == chess.WHITE else "1-0"
    if board.is_stalemate():
        return "stalemate", "1/2-1/2"
    if board.is_insufficient_material():
        return "insufficient-material", "1/2-1/2"
    if board.is_fivefold_repetition():
        return "fivefold-repetition", "1/2-1/2"
    if board.is_seventyfive_moves():
        return "seventy-five-move", "1/2-1/2"
    return None


def game_row(game):
    row = {"tags": {t: game.headers.get(t) for t in TAGS}, "errors": len(game.errors)}
    for side in ("White", "Black"):
        v = game.headers.get(side + "Elo")
        try:
            row[side.lower() + "_elo"] = int(v.strip()) if v is not None else None
        except ValueError:
            row[side.lower() + "_elo"] = None
    board = game.board()
    first = {"end": None, "threefold": None, "fifty": None}
    clocks = []  # (ply, mover is white, seconds or None)

    def look(p):
        if first["end"] is None and ending(board):
            first["end"] = (p,) + ending(board)
        if first["threefold"] is None and board.can_claim_threefold_repetition():
            first["threefold"] = p
        if first["fifty"] is None and board.can_claim_fifty_moves():
            first["fifty"] = p

    ply = 0
    for node in game.mainline():
        look(ply)
        mover_white = board.turn == chess.WHITE
        board.push(node.move)
        ply += 1
        clocks.append((ply, mover_white, node.clock()))
    look(ply)
    threefold, fifty, end = first["threefold"], first["fifty"], first["end"]
    row["plies"] = ply
    row["first_threefold_claimable_ply"] = threefold
    row["first_fifty_claimable_ply"] = fifty
    row["ended"] = list(end) if end else None
    first = min([p for p in (threefold, fifty) if p is not None], default=None)
    white = black = None
    if first is not None:
        for p, mover_white, c in clocks:
            if p <= first and c is not None:
                if mover_white:
                    white = c
                else:
                    black = c
    row["clock_white"] = white
    row["clock_black"] = black
    return row


def main():
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8", errors="replace") as f:
            n = 0
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                n += 1
                row = game_row(game)
                row["file"] = path
                row["game"] = n
                print(json.dumps(row))


if __name__ == "__main__":
    main()
