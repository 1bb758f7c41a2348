import warnings
warnings.warn_explicit('x', UserWarning, 'f', 1)
warnings.simplefilter('ignore')
