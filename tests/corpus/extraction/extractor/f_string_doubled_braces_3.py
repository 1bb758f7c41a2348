raise E(f'{{{x}}}')
