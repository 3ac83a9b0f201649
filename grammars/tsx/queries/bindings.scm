; inherits: typescript
; TSX uses the TypeScript bindings unchanged.
