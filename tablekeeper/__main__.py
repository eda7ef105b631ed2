from tablekeeper.cli import main

raise SystemExit(main())
