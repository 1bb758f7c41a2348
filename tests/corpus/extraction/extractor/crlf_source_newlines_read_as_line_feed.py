raise E("""first
second""")
raise E(f'''x
{y}''')
raise E('a\
b')
