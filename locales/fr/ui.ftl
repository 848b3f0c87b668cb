# Interface strings (pages).
