"""How long the web app's master-level opponents take (docs/web.md, "Speed").

Two measurements, per preset:

* **decision**: one ``PIMCAgent`` play decision (the ``master`` level, its
  defaults), over every play decision of seeded deals in which all seats are
  master-level;
* **response**: one ``POST /api/games/{id}/action`` through the app (the
  test client, no network), from the person's move to the answer: the
  move, then the master-level opponents' turns until the person's next
  turn or the end of the deal (the person plays the hint).

    python benchmarks/web_latency.py [--deals 20] [--presets standard four]

Prints median, 90th percentile and largest time of each, in milliseconds.
"""
from __future__ import annotations

import argparse
import statistics
import time

from ddz_fast import Game, PIMCAgent, Phase
from ddz_fast.game import simple_bot


def _summary(name, times):
    times = sorted(times)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    print(f"  {name:<9} {len(times):>6} {1e3 * statistics.median(times):>10.2f} {1e3 * p90:>10.2f} "
          f"{1e3 * times[-1]:>10.2f}")


def decisions(preset, deals):
    agent = PIMCAgent(seed=1, rules=preset)
    times = []
    for seed in range(deals):
        g = Game(preset, seed=seed)
        while not g.is_over:
            obs = g.observation(g.to_move)
            if g.phase == Phase.PLAY:
                t = time.perf_counter()
                a = agent(obs)
                times.append(time.perf_counter() - t)
            else:
                a = simple_bot(obs, preset)
            g.step(a)
    return times


def responses(preset, deals):
    from starlette.testclient import TestClient

    from ddz_fast.web import create_app

    times = []
    with TestClient(create_app()) as c:
        for seed in range(deals):
            v = c.post("/api/games", json={"preset": preset, "level": "master", "seed": seed}).json()
            while v["result"] is None:
                h = c.post(f"/api/games/{v['id']}/hint").json()
                t = time.perf_counter()
                v = c.post(f"/api/games/{v['id']}/action", json={"index": h["index"]}).json()
                times.append(time.perf_counter() - t)
    return times


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--presets", nargs="+", default=["standard", "strict", "four"])
    args = p.parse_args()
    print(f"{'':<11} {'calls':>6} {'median ms':>10} {'p90 ms':>10} {'max ms':>10}")
    for preset in args.presets:
        print(preset)
        _summary("decision", decisions(preset, args.deals))
        _summary("response", responses(preset, args.deals))


if __name__ == "__main__":
    main()
