raise E('100%% sure: %s' % x)
