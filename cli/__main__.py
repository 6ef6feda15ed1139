from memstrata.launcher import main

raise SystemExit(main())
