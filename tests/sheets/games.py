"""Test helper for tests/sheets.rs, run with the oracle's python-chess (an
implementation independent of verify-claim).

  games.py pick CORPUS N MIN MAX OUTDIR   writes N standard-start games of
      MIN..MAX plies as OUTDIR/gI.pgn and prints one JSON line each:
      {"file": path, "san": [...]}
  games.py dance                          reads a JSON list of SAN lists;
      prints each with a threefold repetition played after it (or null)
  games.py legal                          reads a JSON list of SAN lists on
      stdin; prints a JSON list: each list replayed from the start
      position, as SAN when every move is legal as written, else null
"""
import json
import os
import sys

import chess
import chess.pgn


def pick(corpus, n, lo, hi, out):
    found = 0
    with open(corpus, encoding="utf-8", errors="replace") as fh:
        while found < n:
            game = chess.pgn.read_game(fh)
            if game is None:
                break
            if "FEN" in game.headers or game.errors:
                continue
            moves = list(game.mainline_moves())
            if not lo <= len(moves) <= hi:
                continue
            board = game.board()
            san = []
            for m in moves:
                san.append(board.san(m))
                board.push(m)
            clean = chess.pgn.Game()
            for k in ("Event", "White", "Black", "Date", "Round"):
                clean.headers[k] = game.headers.get(k, "?")
            node = clean
            for m in moves:
                node = node.add_variation(m)
            clean.headers["Result"] = "*"
            path = os.path.join(out, f"g{found}.pgn")
            with open(path, "w", encoding="utf-8") as w:
                print(clean, file=w)
            print(json.dumps({"file": path, "san": san}))
            found += 1


def legal():
    out = []
    for sans in json.load(sys.stdin):
        board = chess.Board()
        replay = []
        for s in sans:
            try:
                move = board.parse_san(s)
            except ValueError:
                replay = None
                break
            replay.append(board.san(move))
            board.push(move)
        out.append(replay)
    print(json.dumps(out))


def dance():
    """Reads a JSON list of SAN lists on stdin; for each, the list with a
    threefold repetition played after it (a piece of each side out and
    back, twice), or null when no such moves exist."""
    out = []
    for sans in json.load(sys.stdin):
        board = chess.Board()
        for s in sans:
            board.push_san(s)
        out.append(dance_after(board, list(sans)))
    print(json.dumps(out))


def quiet(board):
    return [m for m in board.legal_moves
            if not board.is_capture(m) and board.piece_type_at(m.from_square) not in (chess.PAWN, chess.KING, chess.ROOK)
            and not board.gives_check(m) and not board.is_castling(m)]


def dance_after(board, sans):
    for m1 in quiet(board):
        board.push(m1)
        for m2 in quiet(board):
            board.push(m2)
            back1 = chess.Move(m1.to_square, m1.from_square)
            if board.is_legal(back1) and not board.gives_check(back1):
                board.push(back1)
                back2 = chess.Move(m2.to_square, m2.from_square)
                if board.is_legal(back2):
                    board.pop()
                    board.pop()
                    board.pop()
                    line = []
                    for _ in range(2):
                        for m in (m1, m2, back1, back2):
                            line.append(board.san(m))
                            board.push(m)
                    if board.is_repetition(3):
                        return sans + line
                    for _ in line:
                        board.pop()
                    board.push(m1)
                    board.push(m2)
                    board.push(back1)
                board.pop()
            board.pop()
        board.pop()
    return None


if __name__ == "__main__":
    if sys.argv[1] == "pick":
        pick(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
    elif sys.argv[1] == "dance":
        dance()
    else:
        legal()
