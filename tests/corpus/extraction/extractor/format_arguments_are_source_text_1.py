raise E('{}'.format('literal'))
