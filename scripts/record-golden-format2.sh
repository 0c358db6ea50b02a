#!/usr/bin/env bash
# Records the log-format-2 golden logs in replays/golden (*-format2.ndjson.gz): one small
# run of every built-in world, LLM worlds against the shipped local server (zero latency).
# Run from the repository root after `npm run build`; re-recording is only for a deliberate
# change (the logs of earlier versions must keep verifying, see replays/README.md).
source scripts/golden-lib.sh 2
run rumor-ic-xstate-full rumor --set n=100 --set model=independent-cascade --set p=0.3 \
  --set executor=xstate --log full --seed 5
run epidemic-sir-er epidemic --set n=300 --set network=erdos-renyi --set k=6 --set initial=3 \
  --ticks 40 --seed 7
run opinion-hk opinion --set n=200 --set model=hegselmann-krause --ticks 30 --seed 1
run sotopia-agents sotopia --llm-base-url "$URL" --log full --seed 2
run survey survey --set agents=8 --set elicitation=distribution --set discussion=true \
  --set pushback=opposite --ticks 3 --llm-base-url "$URL" --log full --seed 1
run town-square town-square --set agents=8 --ticks 6 --snapshot-every 2 --llm-base-url "$URL" \
  --log full --seed 2
