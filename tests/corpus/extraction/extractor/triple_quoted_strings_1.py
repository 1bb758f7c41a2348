raise E('''first
second''')
