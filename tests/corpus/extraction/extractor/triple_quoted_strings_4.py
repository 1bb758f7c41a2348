raise E(b"""bytes\x41""")
