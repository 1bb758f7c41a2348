raise E(**kwargs)
