#!/usr/bin/env bash
# Records the log-format-3 golden logs in replays/golden (*-format3.ndjson.gz): one small
# run of each built-in world whose XState agents keep JSON memory (the worlds whose state
# digest format 3 changes), LLM worlds against the shipped local server (zero latency).
# Run from the repository root after `npm run build`; re-recording is only for a deliberate
# change (the logs of earlier versions must keep verifying, see replays/README.md).
source scripts/golden-lib.sh 3
run rumor-ic-xstate-full rumor --set n=100 --set model=independent-cascade --set p=0.3 \
  --set executor=xstate --log full --seed 5
run sotopia-agents sotopia --llm-base-url "$URL" --log full --seed 2
run survey survey --set agents=8 --set elicitation=distribution --set discussion=true \
  --set pushback=opposite --ticks 3 --llm-base-url "$URL" --log full --seed 1
run town-square town-square --set agents=8 --ticks 6 --snapshot-every 2 --llm-base-url "$URL" \
  --log full --seed 2
