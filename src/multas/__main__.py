from multas.cli import main

main()
