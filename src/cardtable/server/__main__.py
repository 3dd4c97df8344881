from cardtable.server import main

main()
