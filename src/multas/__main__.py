from multas.principal import main

main()
