raise E('raw ' r'\d' b' bytes')
