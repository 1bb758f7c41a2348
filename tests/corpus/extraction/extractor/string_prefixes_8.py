raise E(B"bytes")
