// PLACEHOLDER — replaced in this session (Thm 3 / Thm 4 enclosures).
