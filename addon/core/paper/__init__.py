"""The papers' algorithms: text lines and their measures, DANAg and its kin, TitleFinder."""
