"""pre_tool hook: refuse a production rollout outside 09:00-17:00 on weekdays."""

import datetime
import json
import sys

call = json.load(sys.stdin)
args = call.get("tool_input", {})
now = datetime.datetime.now()
if args.get("environment") == "production" and (now.weekday() >= 5 or not 9 <= now.hour < 17):
    print("production rollouts run on weekdays, 09:00-17:00", file=sys.stderr)
    sys.exit(2)
