# Sentences of the diagnosis that explains the numbers of a pasted error.
