//! Tests of the reader.

use super::*;

fn read_all(s: &str) -> Vec<Result<GameRecord<'_>, SyntaxError>> {
    let mut r = Reader::new(s.as_bytes(), Encoding::Utf8);
    std::iter::from_fn(|| r.next_game()).collect()
}

fn moves<'a>(g: &GameRecord<'a>) -> Vec<&'a str> {
    g.moves.iter().map(|m| m.text).collect()
}

#[test]
fn reads_moves_numbers_comments_variations_nags() {
    let games = read_all(
        "[A \"b\"]\n1.e4 e5 $1 2. Nf3!? {c (d} (2. f4 {x} (2. d4)) 2... Nc6; rest\n3. O-O 0-0 1/2-1/2",
    );
    let g = games[0].as_ref().unwrap();
    assert_eq!(moves(g), ["e4", "e5", "Nf3", "Nc6", "O-O", "0-0"]);
    assert_eq!(g.result.unwrap().text, "1/2-1/2");
}

#[test]
fn a_game_of_tags_alone() {
    let games = read_all("[A \"1\"]\n[B \"x\"]\n \n\n[A \"2\"]\n\n1. e4 *\n");
    assert_eq!(games.len(), 2);
    let g = games[0].as_ref().unwrap();
    assert_eq!((g.tags.len(), g.moves.len()), (2, 0));
    assert_eq!(games[1].as_ref().unwrap().moves.len(), 1);
}

#[test]
fn two_games_and_missing_result() {
    let games = read_all("[A \"1\"]\n1. e4\n\n[A \"2\"]\n1. d4 *\n");
    assert_eq!(games.len(), 2);
    assert!(games[0].as_ref().unwrap().result.is_none());
    assert_eq!(games[1].as_ref().unwrap().tag("A"), Some("2"));
}

/// Each kind of word that starts with a digit or `*`: move numbers (with
/// a move glued on), results, castling with zeros, and tokens handed to
/// the game to refuse.
#[test]
fn words_that_start_with_a_digit() {
    let g = read_all("1.e4 1...e5 12. Nf3 0-0 0-0-0 1-2 3x *x 1-0")
        .remove(0)
        .unwrap();
    assert_eq!(
        moves(&g),
        ["e4", "e5", "Nf3", "0-0", "0-0-0", "1-2", "3x", "*x"]
    );
    assert_eq!(g.result.map(|r| r.text), Some("1-0"));
    for (text, result) in [
        ("1. e4 *", "*"),
        ("1. e4 1/2-1/2", "1/2-1/2"),
        ("1. e4 0-1", "0-1"),
    ] {
        let g = read_all(text).remove(0).unwrap();
        assert_eq!(g.result.map(|r| r.text), Some(result));
    }
    let e = read_all("1. e4 e5 007").remove(0).unwrap_err();
    assert_eq!((e.offset, e.message.contains("'007'")), (9, true));
    let g = read_all("1. e4!? e5?? 2. ?! Nf3 *").remove(0).unwrap();
    assert_eq!(moves(&g), ["e4", "e5", "Nf3"]);
}

#[test]
fn errors_carry_offsets() {
    let src = "[A \"1\"]\n1. e4 {open";
    let e = read_all(src).remove(0).unwrap_err();
    assert_eq!(e.offset, src.find('{').unwrap());
    let e = read_all("[A \"1]\n1. e4 *").remove(0).unwrap_err();
    assert!(e.message.contains("unterminated tag"), "{}", e.message);
    let e = read_all("1. e4 ) *").remove(0).unwrap_err();
    assert!(e.message.contains("')'"));
    let e = read_all("1. e4 (e5 *").remove(0).unwrap_err();
    assert!(e.message.contains("unterminated variation"));
    let e = read_all("1. e4 12 *").remove(0).unwrap_err();
    assert!(e.message.contains("'12'"));
}

#[test]
fn latin1_tags() {
    let bytes = b"[White \"M\xfcller\"]\n1. e4 *";
    let mut r = Reader::new(bytes, Encoding::Utf8);
    let e = r.next_game().unwrap().unwrap_err();
    assert_eq!(e.offset, 9);
    assert!(e.message.contains("--encoding latin1"));
    assert!(r.next_game().is_none_or(|g| g.is_err()));
    let mut r = Reader::new(bytes, Encoding::Auto);
    let g = r.next_game().unwrap().unwrap();
    assert_eq!(g.tag("White"), Some("M\u{fc}ller"));
}

#[test]
fn escapes_in_tag_values() {
    let games = read_all("[Event \"a \\\"b\\\" \\\\ c\"]\n*");
    assert_eq!(
        games[0].as_ref().unwrap().tag("Event"),
        Some("a \"b\" \\ c")
    );
}

#[test]
fn resyncs_after_error() {
    let games = read_all("[A \"1\"]\n1. e4 }\n\n[A \"2\"]\n1. d4 *\n");
    assert!(games[0].is_err());
    assert_eq!(games[1].as_ref().unwrap().tag("A"), Some("2"));
    // An error in a tag skips the rest of that game's tags.
    let games = read_all("[A \"1]\n[B \"x\"]\n\n1. e4 *\n\n[A \"2\"]\n*\n");
    assert_eq!(games.len(), 2, "{games:?}");
    assert!(games[0].is_err());
    assert_eq!(games[1].as_ref().unwrap().tag("A"), Some("2"));
    // Errors at the very end terminate.
    let games = read_all("[A \"1]");
    assert_eq!(games.len(), 1);
}

fn read_bytes(s: &[u8]) -> Vec<Result<GameRecord<'_>, SyntaxError>> {
    let mut r = Reader::new(s, Encoding::Utf8);
    std::iter::from_fn(|| r.next_game()).collect()
}

#[test]
fn a_game_without_a_result_ends_at_a_blank_line_and_a_tag() {
    let games = read_all("[Event \"a\"]\n\n1. f3 e5 2. g4 Qh4#\n\n[Event \"b\"]\n\n1. e4 1-0\n");
    assert_eq!(games.len(), 2);
    let a = games[0].as_ref().unwrap();
    assert!(a.result.is_none());
    assert_eq!(moves(a), ["f3", "e5", "g4", "Qh4#"]);
    // The missing marker's place: just after the last move.
    assert_eq!(a.end, "[Event \"a\"]\n\n1. f3 e5 2. g4 Qh4#".len());
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("b"));
}

#[test]
fn an_unclosed_variation_does_not_swallow_the_next_game() {
    let src = "[Event \"a\"]\n\n1. e4 ( 1. d4 *\n\n[Event \"b\"]\n[White \"S\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
    let games = read_all(src);
    assert_eq!(games.len(), 2, "{games:?}");
    let e = games[0].as_ref().unwrap_err();
    assert_eq!(e.offset, src.find('(').unwrap());
    let b = games[1].as_ref().unwrap();
    assert_eq!((b.tag("Event"), b.tag("White")), (Some("b"), Some("S")));
    assert_eq!(moves(b).len(), 4);
    // With no blank line before the next tags, they start no game (as
    // python-chess reads them): the error is the one game's.
    let games = read_all("[A \"1\"]\n1. e4 (d4\n[A \"2\"]\n1. d4 *\n");
    assert_eq!(games.len(), 1, "{games:?}");
    assert!(games[0].is_err());
}

#[test]
fn a_bracket_in_the_movetext_is_an_error_of_its_game() {
    let src = "[Event \"a\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 [%clk 0:01:00] 4. Ng1 Ng8 *\n\n[Event \"b\"]\n\n1. e4 *\n";
    let games = read_all(src);
    assert_eq!(games.len(), 2, "{games:?}");
    let e = games[0].as_ref().unwrap_err();
    assert_eq!(e.offset, src.find("[%clk").unwrap());
    assert!(e.message.contains("'[' in the movetext"), "{}", e.message);
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("b"));
    // A tag line with no blank line before it starts no game either.
    let games = read_all("[A \"1\"]\n\n1. e4 e5\n[A \"2\"]\n\n1. d4 *\n");
    assert_eq!(games.len(), 1, "{games:?}");
    assert!(games[0].is_err());
}

#[test]
fn quotes_not_escaped_in_a_tag_value() {
    // pychess's mate_in_3.pgn; python-chess reads the value with its quotes.
    let games = read_all("[Event \"e\"]\n[White \"\"Socrates Expert\"\"] [Black \"b\"]\n\n*\n");
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.tag("White"), Some("\"Socrates Expert\""));
    assert_eq!(g.tag("Black"), Some("b"));
    assert_eq!(g.unescaped_quotes, Some(12));
    // With no `]` at all, the tag is unterminated still.
    let games = read_all("[White \"\"Socrates\n\n*\n");
    assert!(
        games[0]
            .as_ref()
            .unwrap_err()
            .message
            .contains("no closing ']'")
    );
}

#[test]
fn dots_apart_from_the_move_number() {
    // chess.js writes `1. ... Ba5` for Black's move.
    let games = read_all("[FEN \"x\"]\n\n1. ... Ba5 2. Nf3 2.\t... Nc6 3.   ...Nf6 *\n");
    assert_eq!(
        moves(games[0].as_ref().unwrap()),
        ["Ba5", "Nf3", "Nc6", "Nf6"]
    );
    // Dots with no move number stay an error for the game to refuse.
    let games = read_all("1. e4 ... e5 *\n");
    assert_eq!(moves(games[0].as_ref().unwrap()), ["e4", "...", "e5"]);
}

#[test]
fn a_damaged_tag_line_does_not_split_its_game() {
    // chess.js's tests-pgn-0: tags joined by `<br />` on one line.
    let src = "[Event \"?\"]<br />[Site \"?\"]<br />[White \"J\"]<br /><br />1. d4 d5 1-0 \n\n[Event \"b\"]\n\n1. e4 *\n";
    let games = read_all(src);
    assert_eq!(games.len(), 2, "{games:?}");
    assert_eq!(
        games[0].as_ref().unwrap_err().offset,
        src.find("[Site").unwrap()
    );
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("b"));
    // A damaged tag line between good ones.
    let games = read_all("[A \"1\"]\n[B \"x]\n[C \"y\"]\n\n1. e4 *\n\n[A \"2\"]\n\n*\n");
    assert_eq!(games.len(), 2, "{games:?}");
    assert_eq!(games[1].as_ref().unwrap().tag("A"), Some("2"));
}

#[test]
fn an_unclosed_comment_does_not_swallow_the_next_game() {
    // With each kind of line end: the comment's search for its `}` must
    // stop at a lone CR too.
    for eol in ["\n", "\r\n", "\r"] {
        let src = "[A \"1\"]\n\n1. e4 {oops\n\n[A \"2\"]\n\n1. d4 {c} *\n".replace('\n', eol);
        let games = read_all(&src);
        assert_eq!(games.len(), 2, "{eol:?}: {games:?}");
        assert!(games[0].as_ref().unwrap_err().message.contains("comment"));
        assert_eq!(moves(games[1].as_ref().unwrap()), ["d4"]);
    }
}

#[test]
fn lone_cr_line_ends_lose_nothing() {
    for eol in ["\r", "\r\n", "\n"] {
        let src = [
            "[Event \"a\"]",
            "[Site \"x\"];c",
            "",
            "1. f3 e5 2. g4 Qh4# 0-1",
            "",
            "[Event \"b\"]",
            "",
            "",
            "[Event \"c\"]",
            "",
            "1. e4 }",
            "",
            "[Event \"d\"]",
            "",
            "1. e4 ; a comment",
            "e5 *",
            "",
        ]
        .join(eol);
        let games = read_all(&src);
        let events: Vec<_> = games
            .iter()
            .map(|g| g.as_ref().map(|g| g.tag("Event").unwrap_or("?")).ok())
            .collect();
        assert_eq!(events, [Some("a"), Some("b"), None, Some("d")], "{eol:?}");
        assert_eq!(moves(games[0].as_ref().unwrap()).len(), 4, "{eol:?}");
        assert_eq!(moves(games[3].as_ref().unwrap()), ["e4", "e5"], "{eol:?}");
    }
}

#[test]
fn encodings() {
    let bytes = b"[White \"M\xfcller\"]\n[Black \"\xc3\xbc\"]\n1. e4 *";
    let mut r = Reader::new(bytes, Encoding::Auto);
    let g = r.next_game().unwrap().unwrap();
    assert_eq!(
        (g.tag("White"), g.tag("Black")),
        (Some("M\u{fc}ller"), Some("\u{fc}"))
    );
    assert!(g.latin1);
    let mut r = Reader::new(bytes, Encoding::Latin1);
    let g = r.next_game().unwrap().unwrap();
    assert_eq!(g.tag("Black"), Some("\u{c3}\u{bc}"));
    let mut r = Reader::new(b"[White \"\xc3\xbc\"]\n1. e4 *", Encoding::Auto);
    assert!(!r.next_game().unwrap().unwrap().latin1);
    // A move token that is not UTF-8 is an error in every encoding.
    for enc in [Encoding::Auto, Encoding::Utf8, Encoding::Latin1] {
        let mut r = Reader::new(b"1. e4 \xe95 *", enc);
        assert!(r.next_game().unwrap().is_err());
    }
}

#[test]
fn moves_after_bytes_that_are_not_utf8() {
    let games = read_bytes(b"1. e4 {\xff} e5 {\xfe\xc3} 2. Nf3 \xe9 *");
    let e = games[0].as_ref().unwrap_err();
    assert_eq!(e.offset, 25);
    let games = read_bytes(b"1. e4 {\xff} e5 {\xfe} 2. Nf3 *");
    assert_eq!(moves(games[0].as_ref().unwrap()), ["e4", "e5", "Nf3"]);
}

#[test]
fn recycled_vectors_hold_nothing_old() {
    let src = b"[A \"1\"]\n1. e4 e5 *\n\n[B \"2\"]\n1. d4 *\n";
    let mut r = Reader::new(src, Encoding::Utf8);
    let g = r.next_game().unwrap().unwrap();
    r.recycle(g);
    let g = r.next_game().unwrap().unwrap();
    assert_eq!(
        (g.tags.len(), g.tag("B"), moves(&g)),
        (1, Some("2"), vec!["d4"])
    );
}

#[test]
fn ends_of_games_tags_and_tokens() {
    let src = "[A \"1\"] [B \"2\"]\n1. e4!? e5 *\n\n[A \"2\"]\n1. d4";
    let games = read_all(src);
    let g = games[0].as_ref().unwrap();
    assert_eq!(&src[g.offset..g.end], "[A \"1\"] [B \"2\"]\n1. e4!? e5 *");
    assert_eq!(&src[g.tags[1].offset..g.tags[1].end], "[B \"2\"]");
    let e4 = g.moves[0].offset;
    assert_eq!(&src[e4..token_end(src.as_bytes(), e4)], "e4!?");
    let g = games[1].as_ref().unwrap();
    assert_eq!(g.end, src.len());
}

/// The fast path for common tags reads what the general one reads, and
/// leaves the rest to it.
#[test]
fn plain_tags_read_as_read_tag_reads_them() {
    for (text, plain) in [
        (&b"[Event \"Rated Blitz\"]\n"[..], true),
        (b"[White \"Caf\xC3\xA9\"]", true),
        (b"[E \"\"]", true),
        (b"[E \"a\\\"b\"]", false),
        (b"[E  \"a\"]", false),
        (b"[ E \"a\"]", false),
        (b"[E \"a\" ]", false),
        (b"[E \"a\xE9\"]", false),
        (b"[E \"a\nb\"]", false),
        (b"[E \"\"x\"\"]", false),
        (b"[E \"a", false),
    ] {
        for encoding in [Encoding::Auto, Encoding::Utf8, Encoding::Latin1] {
            let mut fast = Reader::new(text, encoding);
            let got = fast.plain_tag();
            assert_eq!(
                got.is_some(),
                plain && encoding != Encoding::Latin1,
                "{text:?}"
            );
            let mut slow = Reader::new(text, encoding);
            let want = slow.read_tag(&mut false);
            if let (Some(got), Ok(want)) = (got, want) {
                assert_eq!(
                    (
                        got.name,
                        &*got.value,
                        got.offset,
                        got.end,
                        got.quotes_unescaped
                    ),
                    (
                        want.name,
                        &*want.value,
                        want.offset,
                        want.end,
                        want.quotes_unescaped
                    ),
                    "{text:?}"
                );
                assert_eq!(fast.pos, slow.pos);
            }
        }
    }
}

#[test]
fn a_word_too_long_for_a_move_is_refused_and_quoted_short() {
    let long = "N".repeat(1 << 20);
    let src = format!("1. e4 {long} e5 *\n\n[Event \"b\"]\n\n1. d4 *\n");
    let games = read_all(&src);
    let e = games[0].as_ref().unwrap_err();
    assert_eq!(e.offset, 6);
    assert!(e.message.len() < 120, "{}", e.message.len());
    assert!(
        e.message
            .ends_with("... (1048576 bytes)' is not a move (too long)"),
        "{}",
        e.message
    );
    assert!(games[1].is_ok(), "the next game is read");
    // The longest word still read as a move token.
    let word = "a".repeat(super::MAX_MOVE_WORD);
    let src = format!("1. {word} *");
    let g = read_all(&src).remove(0).unwrap();
    assert_eq!(moves(&g), [word.as_str()]);
}

/// The termination marker ends the movetext: moves after it are an error
/// of its game, at their place (not a second game nobody recorded); the
/// next game's tags, comments, or a game after a blank line may follow.
#[test]
fn moves_after_the_result_are_an_error_of_its_game() {
    for src in [
        "[A \"1\"]\n\n1. e4 e5 1-0 2. Nf3 *\n\n[A \"2\"]\n\n1. d4 *\n",
        "[A \"1\"]\n\n1. e4 e5 1-0 {fine} ; fine\n2. Nf3 *\n\n[A \"2\"]\n\n1. d4 *\n",
        "[A \"1\"]\n\n1. e4 e5 1-0\r\n%escape\r\n2. Nf3 *\r\n\r\n[A \"2\"]\r\n\r\n1. d4 *\r\n",
    ] {
        let games = read_all(src);
        assert_eq!(games.len(), 2, "{src:?}: {games:?}");
        let e = games[0].as_ref().unwrap_err();
        assert_eq!(e.offset, src.find("2.").unwrap(), "{src:?}");
        assert!(
            e.message.starts_with("'2.' after the result 1-0"),
            "{}",
            e.message
        );
        assert_eq!(games[1].as_ref().unwrap().tag("A"), Some("2"));
    }
    for src in [
        "[A \"1\"]\n\n1. e4 e5 1-0 {c}\n\n[A \"2\"]\n1. d4 *\n",
        "[A \"1\"]\n\n1. e4 e5 1-0 {c}\n[A \"2\"]\n1. d4 *\n",
        "[A \"1\"]\n\n1. e4 e5 1-0\n[A \"2\"]\n1. d4 *\n",
        "[A \"1\"]\n\n1. e4 e5 1-0 \n \t\n1. d4 *\n",
        "[A \"1\"]\n\n1. e4 e5 1-0\n\u{feff}[A \"2\"]\n\n1. d4 *",
        "1. e4 e5 1-0 {c\n\n} ; c\n",
    ] {
        let games = read_all(src);
        assert!(games.iter().all(Result::is_ok), "{src:?}: {games:?}");
        assert_eq!(games.len(), 1 + usize::from(src.contains("d4")), "{src:?}");
    }
    // A comment left open after the marker is looked at no further than
    // the next game (as when the games are read in pieces): its own error.
    let games = read_all("1. e4 e5 1-0 {c\n\n[A \"2\"]\n\n1. d4 }\n");
    assert!(games[0].is_ok(), "{games:?}");
    assert!(
        games[1]
            .as_ref()
            .unwrap_err()
            .message
            .starts_with("unterminated comment")
    );
}

/// A comment before a game's tags (a file's heading) or between them is
/// passed over when it closes before the next game; the tags after it are
/// the game's (before, "'[' in the movetext"). One left open is refused.
#[test]
fn a_comment_before_or_between_tags_is_passed_over() {
    let games = read_all("{ made by X }\n[A \"1\"]\n{ note }\n[B \"2\"]\n\n1. e4 *\n");
    assert_eq!(games.len(), 1, "{games:?}");
    let g = games[0].as_ref().unwrap();
    assert_eq!(
        (g.tag("A"), g.tag("B"), moves(g)),
        (Some("1"), Some("2"), vec!["e4"])
    );
    let games = read_all("{ open\n[A \"1\"]\n\n1. e4 *\n");
    assert!(
        games[0]
            .as_ref()
            .unwrap_err()
            .message
            .starts_with("unterminated comment")
    );
    // Closed only past the next game: that is an error of its own.
    let games = read_all("{ open\n\n[A \"1\"]\n\n1. e4 } *\n");
    assert!(games[0].is_err(), "{games:?}");
}
