// PLACEHOLDER — replaced in this session.
