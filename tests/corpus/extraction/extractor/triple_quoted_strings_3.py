raise E(r'''raw\n
line''')
