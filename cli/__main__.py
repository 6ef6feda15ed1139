from lorestack.launcher import main

raise SystemExit(main())
