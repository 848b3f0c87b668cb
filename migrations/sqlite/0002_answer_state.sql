-- How sure each logged answer was (confident, uncertain, none), so the content-gap report
-- can put the errors no article covers first. NULL for queries logged before this version.
ALTER TABLE queries ADD COLUMN answer TEXT CHECK (answer IN ('confident', 'uncertain', 'none'));
