raise E(r'raw \n \d')
