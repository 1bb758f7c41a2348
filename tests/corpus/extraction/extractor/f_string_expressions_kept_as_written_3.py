raise E(f'''multi
{x}
line''')
