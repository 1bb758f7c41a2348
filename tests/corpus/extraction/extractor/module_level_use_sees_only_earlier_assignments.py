raise E(M)
M = "first"
raise E(M)
M = "second"
