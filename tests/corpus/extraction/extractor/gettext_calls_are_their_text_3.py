raise E(ngettext("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", len(a)).format(args=" ".join(a)))
