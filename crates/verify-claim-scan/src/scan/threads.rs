//! The scan's threads: the producer that hands out tasks in input order,
//! and the workers that read (a plain file's segment) and analyse them.

use std::io::{self, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crossbeam_channel::{Receiver, Sender};

use super::handoff::Live;
use super::{Analysis, Input, Needs, Work, analyse_chunk};
use crate::claims::scan::ScanOptions;
use crate::input::chunks::{Chunk, Chunker};
use crate::input::open::{Compression, Source, open_source};
use crate::input::ranges::{Buffers, Ranges};
use crate::input::walk::Item;
use crate::input::zst_frames::{self, Frames};
use crate::record::Encoding;

/// A task for a worker.
pub(super) enum Task {
    Range {
        input: usize,
        file: Arc<str>,
        ranges: Arc<Ranges>,
        segment: u64,
    },
    Chunk {
        input: usize,
        file: Arc<str>,
        chunk: Chunk,
    },
    /// A run of a multi-frame zstd file's frames, decoded by the worker.
    Frames {
        input: usize,
        file: Arc<str>,
        frames: Arc<Frames>,
        run: u64,
    },
}

/// Hands out the tasks in input order, each when there is room.
pub(super) struct Producer {
    pub(super) tasks: Sender<(u64, Task)>,
    pub(super) handoff: Live,
    pub(super) consumed: Arc<AtomicU64>,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) seq: u64,
}

impl Producer {
    pub(super) fn run(mut self, items: Vec<Input>) {
        for (input, item) in items.into_iter().enumerate() {
            let more = match item {
                Input::Walked(Item::Unreadable(p, kind, e)) => {
                    self.work(Work::cannot_read(p.into(), kind, e))
                }
                Input::Walked(Item::Skipped(p, why)) => self.work(Work::Skipped {
                    file: p.into(),
                    message: why,
                }),
                Input::Walked(Item::File(p)) => self.input(input, &p),
                Input::Reader(file, reader) => self.stream(input, file, reader),
                Input::Range { path, start, end } => self.range(input, &path, start, end),
                Input::Frames { path, first, end } => self.frame_runs(input, &path, first, end),
            };
            if !more {
                return;
            }
        }
        self.handoff.done(self.seq);
    }

    /// Waits for room for the next task: false when the scan is stopping.
    fn room(&self) -> bool {
        !self.stop.load(Ordering::Relaxed) && self.handoff.room_for(self.seq)
    }

    fn work(&mut self, work: Work) -> bool {
        if !self.room() {
            return false;
        }
        self.handoff.deliver(self.seq, work);
        self.seq += 1;
        true
    }

    fn task(&mut self, task: Task) -> bool {
        if !self.room() {
            return false;
        }
        let sent = self.tasks.send((self.seq, task)).is_ok();
        self.seq += 1;
        sent
    }

    fn input(&mut self, input: usize, path: &std::path::Path) -> bool {
        let file: Arc<str> = if path.as_os_str() == "-" {
            Arc::from("<stdin>")
        } else {
            Arc::from(crate::input::walk::display_name(path))
        };
        if let Some(frames) = zst_frames::cut(path) {
            let all = 0..frames.runs();
            return self.frame_tasks(input, file, frames, all);
        }
        match open_source(path, Arc::clone(&self.consumed)) {
            Ok(Source::Plain(ranges)) => self.segments(input, file, ranges),
            Ok(Source::Stream(reader)) => self.stream(input, file, reader),
            Err(e) => self.work(Work::cannot_read(file, e.kind(), e)),
        }
    }

    /// The games starting in frame runs `[first, end)` of a `.zst` file;
    /// one not cut into runs is read whole by the task of run 0.
    fn frame_runs(&mut self, input: usize, path: &str, first: u64, end: u64) -> bool {
        let Some(frames) = zst_frames::cut(std::path::Path::new(path)) else {
            return first > 0 || self.input(input, std::path::Path::new(path));
        };
        let runs = first..end.min(frames.runs());
        self.frame_tasks(input, Arc::from(path), frames, runs)
    }

    /// A task for each run of `runs`, which the workers decode themselves.
    fn frame_tasks(
        &mut self,
        input: usize,
        file: Arc<str>,
        frames: zst_frames::Frames,
        runs: std::ops::Range<u64>,
    ) -> bool {
        let frames = Arc::new(frames);
        runs.into_iter().all(|run| {
            self.task(Task::Frames {
                input,
                file: Arc::clone(&file),
                frames: Arc::clone(&frames),
                run,
            })
        })
    }

    /// The games starting in `[start, end)` of a plain file.
    fn range(&mut self, input: usize, path: &str, start: u64, end: u64) -> bool {
        let file: Arc<str> = Arc::from(path);
        let opened = std::fs::File::open(path).and_then(|mut f| {
            let meta = f.metadata()?;
            let mut head = [0u8; 4];
            let n = if meta.is_file() {
                f.read(&mut head)?
            } else {
                0
            };
            if !meta.is_file()
                || Compression::from_name(path).is_some()
                || Compression::from_magic(&head[..n]) != Compression::None
            {
                return Err(io::Error::other(
                    "a byte range is read only of a plain (regular, uncompressed) file",
                ));
            }
            Ok(Ranges::span(f, meta.len(), start, end))
        });
        match opened {
            Ok(ranges) => self.segments(input, file, ranges),
            Err(e) => self.work(Work::cannot_read(file, e.kind(), e)),
        }
    }

    /// One task per segment: the workers read them.
    fn segments(&mut self, input: usize, file: Arc<str>, ranges: Ranges) -> bool {
        let ranges = Arc::new(ranges);
        (0..ranges.segments()).all(|segment| {
            self.task(Task::Range {
                input,
                file: Arc::clone(&file),
                ranges: Arc::clone(&ranges),
                segment,
            })
        })
    }

    /// A stream cut into chunks here, in order; a read error is the
    /// input's last work, after the complete games before it: the game it
    /// cut short is not read, and is the error's place.
    fn stream(&mut self, input: usize, file: Arc<str>, reader: Box<dyn Read + Send>) -> bool {
        let mut chunker = Chunker::new(reader);
        let mut read_any = false;
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return false;
            }
            let more = match chunker.next_whole_chunk() {
                Ok(Some(chunk)) => {
                    read_any = true;
                    self.task(Task::Chunk {
                        input,
                        file: Arc::clone(&file),
                        chunk,
                    })
                }
                Ok(None) => return true,
                Err(e) => {
                    let message = stream_error(&e);
                    // Nothing read at all (not a compressed file, say): no
                    // game to place the error at.
                    return self.work(if read_any {
                        Work::Unread {
                            input,
                            file,
                            message,
                        }
                    } else {
                        Work::Failed {
                            file,
                            kind: crate::input::read_error_kind(&e),
                            message,
                        }
                    });
                }
            };
            if !more {
                return false;
            }
        }
    }
}

/// What a stream's read error says (a run of frames says the same).
fn stream_error(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::InvalidData | io::ErrorKind::UnexpectedEof => {
            format!("stopped reading: {e} (truncated or corrupt?)")
        }
        _ => format!("stopped reading: {e}"),
    }
}

/// Reads (for a range) and analyses tasks until there are none or the scan
/// stops.
pub(super) struct Worker {
    pub(super) tasks: Receiver<(u64, Task)>,
    pub(super) handoff: Live,
    pub(super) encoding: Encoding,
    pub(super) options: ScanOptions,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) consumed: Arc<AtomicU64>,
    /// What the sink needs besides the findings.
    pub(super) needs: Needs,
    /// The test-only panic ([`super::DEBUG_PANIC`]).
    pub(super) panic_on: Option<Arc<str>>,
    /// Kept from one segment to the next.
    pub(super) buffers: Buffers,
}

/// A chunk buffer larger than this (a very long game) is not kept.
const KEEP: usize = 4 * crate::input::ranges::SEGMENT as usize;

impl Worker {
    pub(super) fn run(mut self) {
        // Ends when the producer is gone and every task is taken.
        while let Ok((seq, task)) = self.tasks.recv() {
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            let work = self.guarded(task);
            self.handoff.deliver(seq, work);
        }
    }

    /// [`Worker::work`], a panic caught and made the task's work: the scan
    /// ends with an error naming the file and the game, never waits for a
    /// task that will not come.
    pub(super) fn guarded(&mut self, task: Task) -> Work {
        let (input, file) = match &task {
            Task::Range { input, file, .. }
            | Task::Chunk { input, file, .. }
            | Task::Frames { input, file, .. } => (*input, Arc::clone(file)),
        };
        let mut game = 0;
        match catch_unwind(AssertUnwindSafe(|| self.work(task, &mut game))) {
            Ok(work) => work,
            Err(payload) => {
                self.buffers = Buffers::default();
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a worker panicked".to_owned());
                Work::Panicked {
                    input,
                    file,
                    game,
                    message,
                }
            }
        }
    }

    pub(super) fn work(&mut self, task: Task, game: &mut usize) -> Work {
        let (input, file, chunk) = match task {
            Task::Chunk { input, file, chunk } => (input, file, chunk),
            Task::Frames {
                input,
                file,
                frames,
                run,
            } => return self.frames(input, file, &frames, run, game),
            Task::Range {
                input,
                file,
                ranges,
                segment,
            } => {
                self.consumed
                    .fetch_add(ranges.segment_len(segment), Ordering::Relaxed);
                if ranges.failed_before(segment) {
                    // Not reported (see `Work::Unread`): not read either.
                    return Work::Chunk {
                        input,
                        file,
                        games: 0,
                        plies: 0,
                        text_bytes: 0,
                        lines: 0,
                        findings: Vec::new(),
                        rows: Vec::new(),
                        text: None,
                    };
                }
                match ranges.chunk_with(segment, &mut self.buffers) {
                    Ok(chunk) => (input, file, chunk),
                    Err(e) => {
                        let message = format!("stopped reading: {e}");
                        return Work::Unread {
                            input,
                            file,
                            message,
                        };
                    }
                }
            }
        };
        let a = analyse_chunk(&chunk, &self.analysis(), game);
        let text_bytes = chunk.bytes.len() as u64;
        let text = (self.needs.chunk.as_ref())
            .map(|hook| hook.chunk(&chunk.bytes, self.encoding, &a.findings));
        if chunk.bytes.capacity() <= KEEP {
            self.buffers.bytes = chunk.bytes;
        }
        Work::Chunk {
            input,
            file,
            games: a.games,
            plies: a.plies,
            text_bytes,
            lines: a.lines,
            findings: a.findings,
            rows: a.rows,
            text,
        }
    }

    /// How this worker analyses a chunk.
    fn analysis(&self) -> Analysis<'_> {
        Analysis {
            encoding: self.encoding,
            options: &self.options,
            stop: &self.stop,
            boards: self.needs.boards,
            games: self.needs.games,
            panic_on: self.panic_on.as_deref(),
        }
    }

    /// A run of frames: its pieces analysed one by one and put together as
    /// one chunk's work (game numbers and lines run on as the order runs
    /// them on); a decoding error comes after them and stops the file.
    fn frames(
        &mut self,
        input: usize,
        file: Arc<str>,
        frames: &Frames,
        run: u64,
        game: &mut usize,
    ) -> Work {
        self.consumed
            .fetch_add(frames.run_len(run), Ordering::Relaxed);
        let (mut games, mut plies, mut lines, mut text_bytes) = (0, 0, 0, 0);
        let mut findings = Vec::new();
        let mut rows = Vec::new();
        let mut text = self.needs.chunk.as_ref().map(|_| Vec::new());
        let mut reader = frames.reader(run);
        let mut error = None;
        while !frames.failed_before(run) && !self.stop.load(Ordering::Relaxed) {
            let chunk = match reader.next_chunk() {
                Ok(Some(chunk)) => chunk,
                Ok(None) => break,
                Err(e) => {
                    error = Some(stream_error(&e));
                    break;
                }
            };
            *game = games;
            let a = analyse_chunk(&chunk, &self.analysis(), game);
            let (g, p, l, mut f) = (a.games, a.plies, a.lines, a.findings);
            if let (Some(hook), Some(t)) = (self.needs.chunk.as_ref(), text.as_mut()) {
                t.extend(hook.chunk(&chunk.bytes, self.encoding, &f));
            }
            for x in &mut f {
                x.game += games;
                x.place.line += lines;
            }
            findings.extend(f);
            rows.extend(a.rows.into_iter().map(|mut r| {
                r.moved(games, lines);
                r
            }));
            (games, plies, lines) = (games + g, plies + p, lines + l);
            text_bytes += chunk.bytes.len() as u64;
        }
        let work = Work::Chunk {
            input,
            file: Arc::clone(&file),
            games,
            plies,
            text_bytes,
            lines,
            findings,
            rows,
            text,
        };
        match error {
            None => work,
            Some(message) => Work::Stopped {
                chunk: Box::new(work),
                input,
                file,
                message,
            },
        }
    }
}
