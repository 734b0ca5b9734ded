"""How often is play continued past a claimable threefold repetition, by
Elo band and time control? The worked research example of docs/python.md:
the per-game table (``verify_claim.scan_games``) into DuckDB, one query,
its table printed as Markdown, and a plot written as a PNG.

    python python/examples/play_past_threefold.py ../shared/corpus/lichess docs/play-past-threefold.png

Needs ``pip install ./python duckdb matplotlib`` (pyarrow comes with
``./python[arrow]``).

"Continued" means more than one ply was played after the first ply at
which the player to move could claim (9.2): one ply is the written move of
a claim by writing it (9.2.1), which lichess records as played before the
draw; more means the game went on.
"""

import sys

import duckdb

import verify_claim

QUERY = """
with games as (
    select
        *,
        -- lichess's speed: the estimated duration, base + 40 × increment
        try_cast(split_part(time_control, '+', 1) as integer)
            + 40 * try_cast(split_part(time_control, '+', 2) as integer) as seconds,
        (white_elo + black_elo) / 2 as elo
    from reader
    where error is null
)
select
    case when seconds < 180 then '1 bullet' when seconds < 480 then '2 blitz'
         when seconds < 1500 then '3 rapid' else '4 classical' end as speed,
    case when elo < 1500 then '1 <1500' when elo < 2000 then '2 1500-1999'
         else '3 2000+' end as elo_band,
    count(*) as games,
    count(first_threefold_claimable_ply) as claimable,
    count(*) filter (where plies - first_threefold_claimable_ply > 1) as continued,
    round(100 * continued / nullif(claimable, 0), 0) as continued_pct
from games
where seconds is not null and elo is not null
group by all
order by speed, elo_band
"""


def table(paths):
    reader = verify_claim.scan_games(paths)
    rows = duckdb.sql(QUERY).fetchall()
    names = ["speed", "Elo band", "games", "threefold claimable", "play continued", "%"]
    return names, [(s[2:], e[2:], *rest) for s, e, *rest in rows]


def markdown(names, rows):
    out = ["| " + " | ".join(names) + " |", "|" + "---|" * len(names)]
    for r in rows:
        cells = ["" if v is None else f"{v:.0f}" if isinstance(v, float) else str(v) for v in r]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def plot(rows, png):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    speeds = sorted({r[0] for r in rows}, key=["bullet", "blitz", "rapid", "classical"].index)
    bands = ["<1500", "1500-1999", "2000+"]
    fig, ax = plt.subplots(figsize=(7, 3.6), dpi=110)
    width = 0.8 / len(bands)
    colours = ["#9ecae1", "#4292c6", "#08519c"]
    for i, band in enumerate(bands):
        xs, heights, labels = [], [], []
        for j, speed in enumerate(speeds):
            row = next((r for r in rows if r[0] == speed and r[1] == band), None)
            if row is None or row[3] == 0:
                continue
            xs.append(j + (i - 1) * width)
            heights.append(100 * row[4] / row[3])
            labels.append(f"{row[4]}/{row[3]}")
        bars = ax.bar(xs, heights, width, label=f"Elo {band}", color=colours[i])
        ax.bar_label(bars, labels, fontsize=7, padding=2)
    ax.set_xticks(range(len(speeds)), speeds)
    ax.set_ylim(0, 115)
    ax.set_ylabel("play continued (%)")
    ax.set_title("Games played on past a claimable threefold (label: continued/claimable)",
                 fontsize=9)
    ax.legend(fontsize=8, loc="upper right", ncols=3)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    fig.savefig(png)


def main():
    *paths, png = sys.argv[1:]
    names, rows = table(paths)
    print(markdown(names, rows))
    plot(rows, png)


if __name__ == "__main__":
    main()
