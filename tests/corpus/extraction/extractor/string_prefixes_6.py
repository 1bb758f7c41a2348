raise E(R"RAW \t")
