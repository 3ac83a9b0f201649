; inherits: typescript
; TSX uses the TypeScript definitions unchanged.
