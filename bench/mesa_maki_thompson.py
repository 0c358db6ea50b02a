"""The rumour world's Maki-Thompson model (`contact=delayed`) written as a Mesa 3 user would.

Same model as `grapevine run rumor --set model=maki-thompson --set contact=delayed` and as the
typed-array program in bench/rumor-baseline.ts: a true fact planted at 5 insiders and a false
rumour planted at 5 other spreaders on Watts-Strogatz(n, k=10, beta=0.1). Messages take one
tick; every agent, in index order, first takes in last tick's messages (in send order), then
tells one random neighbour for each item it spreads.
- Told an item it did not know: it becomes a spreader of it (the rumour: a stifler instead if
  it already knows the fact, the world's default `factBlocksRumor`).
- Told an item it already knew: it answers "ack"; a spreader who gets an ack stops
  (Maki-Thompson: only the teller stops).
Stops when nobody spreads and no message is in flight, or after --max-ticks.

The random numbers differ from grapevine's (Python's Mersenne Twister, networkx's generator),
so the runs agree in distribution, not tick by tick. Prints one JSON line with the figures
grapevine's `end` line also has (ticks, deliveries) and the reach of each item.

    python3 bench/mesa_maki_thompson.py <n> <seed> [--max-ticks 100000] [--active-only]

By default every tick steps every agent (`self.agents.do("step")`, as Mesa's examples do);
most of them have nothing to do. `--active-only` steps, in index order, only the agents with
mail or something to spread (what grapevine's due list does): same model, same results for a
seed, less Python per tick.

Needs Mesa 3 (mesa.discrete_space.Network) and networkx; bench/scale.ts runs it when
`python3 -c "import mesa"` works.
"""

import argparse
import json

import mesa
import networkx as nx
from mesa.discrete_space import FixedAgent, Network

FACT, RUMOR = 0, 1
ITEMS = ("fact", "rumor")
IGNORANT, SPREADER, STIFLER = 0, 1, 2
TELL, ACK = "tell", "ack"


class Person(FixedAgent):
    """One agent on a network cell: per item its state, tellings heard, first teller and tick."""

    def __init__(self, model, cell):
        super().__init__(model)
        self.cell = cell
        self.state = [IGNORANT, IGNORANT]
        self.heard = [0, 0]
        self.source = [-1, -1]
        self.first_tick = [-1, -1]
        self.inbox = []

    def plant(self, item):
        self.state[item] = SPREADER
        self.model.spreading.add(self)
        self.source[item] = self.unique_id
        self.first_tick[item] = 0
        self.model.spreaders[item] += 1
        self.model.aware[item] += 1

    def step(self):
        if self.inbox:
            inbox, self.inbox = self.inbox, []
            for sender, kind, item in inbox:
                if kind == TELL:
                    self.hear(sender, item)
                elif self.state[item] == SPREADER:
                    self.stifle(item)
            self.model.deliveries += len(inbox)
        for item in (FACT, RUMOR):
            if self.state[item] == SPREADER:
                self.model.send(self.cell.neighborhood.select_random_agent(), self, TELL, item)

    def hear(self, sender, item):
        self.heard[item] += 1
        if self.first_tick[item] < 0:
            self.source[item] = sender.unique_id
            self.first_tick[item] = self.model.steps
            self.model.aware[item] += 1
        if self.state[item] != IGNORANT:
            self.model.send(sender, self, ACK, item)
        elif item == RUMOR and self.state[FACT] != IGNORANT:
            self.state[item] = STIFLER
        else:
            self.state[item] = SPREADER
            self.model.spreaders[item] += 1
            self.model.spreading.add(self)

    def stifle(self, item):
        self.state[item] = STIFLER
        self.model.spreaders[item] -= 1
        if SPREADER not in self.state:
            self.model.spreading.discard(self)


class RumorModel(mesa.Model):
    """Maki-Thompson with a fact and a rumour, one-tick messages, simultaneous update."""

    def __init__(
        self, n=100_000, k=10, beta=0.1, insiders=5, planted=5, max_ticks=100_000, active_only=False, seed=None
    ):
        super().__init__(seed=seed)
        self.max_ticks = max_ticks
        self.active_only = active_only
        # agents spreading at least one item
        self.spreading = set()
        self.deliveries = 0
        self.spreaders = [0, 0]
        self.aware = [0, 0]
        self.peak = [0, 0]
        self.in_flight = []
        graph = nx.watts_strogatz_graph(n, k, beta, seed=self.random.getrandbits(32))
        self.grid = Network(graph, capacity=1, random=self.random)
        people = [Person(self, self.grid._cells[i]) for i in range(n)]
        chosen = self.random.sample(range(n), insiders + planted)
        for i in chosen[:insiders]:
            people[i].plant(FACT)
        for i in chosen[insiders:]:
            people[i].plant(RUMOR)
        self.datacollector = mesa.DataCollector(
            model_reporters={
                f"{name}.{what}": (lambda m, i=i, what=what: getattr(m, what)[i])
                for i, name in enumerate(ITEMS)
                for what in ("spreaders", "aware")
            }
        )

    def send(self, to, sender, kind, item):
        self.in_flight.append((to, sender, kind, item))

    def step(self):
        delivered, self.in_flight = self.in_flight, []
        for to, sender, kind, item in delivered:
            to.inbox.append((sender, kind, item))
        if self.active_only:
            due = self.spreading.union(to for to, _, _, _ in delivered)
            for agent in sorted(due, key=lambda a: a.unique_id):
                agent.step()
        else:
            self.agents.do("step")
        for item in (FACT, RUMOR):
            self.peak[item] = max(self.peak[item], self.spreaders[item])
        self.datacollector.collect(self)
        if (self.spreaders == [0, 0] and not self.in_flight) or self.steps >= self.max_ticks:
            self.running = False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("n", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("--max-ticks", type=int, default=100_000)
    parser.add_argument("--active-only", action="store_true", help="step only agents with mail or something to spread")
    args = parser.parse_args()
    if args.n < 11:
        parser.error(f"n must be at least 11 (5 insiders + 5 spreaders + 1), got {args.n}")
    model = RumorModel(n=args.n, seed=args.seed, max_ticks=args.max_ticks, active_only=args.active_only)
    while model.running:
        model.step()
    print(
        json.dumps(
            {
                "mesa": mesa.__version__,
                "reason": "extinct" if model.spreaders == [0, 0] and not model.in_flight else "max-ticks",
                "ticks": model.steps,
                "deliveries": model.deliveries,
                "aware": dict(zip(ITEMS, model.aware)),
                "peak": dict(zip(ITEMS, model.peak)),
            }
        )
    )


if __name__ == "__main__":
    main()
