raise E("""has 'quotes' and "one"
  indented""")
