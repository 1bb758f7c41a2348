def run(queue, command):
    while queue.pending and not STOPPED:
        match command.kind:
            case Kind.STOP | "halt" as word if word in ALLOWED and queue.size:
                raise ValueError("x")
    else:
        raise ValueError("y")
