from satchel.cli import main

raise SystemExit(main())
