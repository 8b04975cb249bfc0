//! Boards: rectangular grids of letters, one of which may be the "Qu" cell.

use std::fmt;
use std::str::FromStr;

/// The letter index of the Qu cell (`q`): a single cell that reads "qu".
pub const QU: u8 = b'q' - b'a';

/// The most cells a board may have (the solver keeps used cells in a `u64`).
pub const MAX_CELLS: usize = 64;

/// The dimensions of a board: `width` columns by `height` rows.
///
/// Written `N` for a square board or `WxH` (`5x4`: five columns, four rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Size {
    /// Number of columns.
    pub width: usize,
    /// Number of rows.
    pub height: usize,
}

impl Size {
    /// A square size.
    pub const fn square(n: usize) -> Self {
        Size {
            width: n,
            height: n,
        }
    }

    /// A size of `width` columns and `height` rows, checked against
    /// [`MAX_CELLS`].
    pub fn new(width: usize, height: usize) -> Result<Self, BoardError> {
        if width == 0 || height == 0 || width * height > MAX_CELLS {
            return Err(BoardError::BadSize { width, height });
        }
        Ok(Size { width, height })
    }

    /// Number of cells.
    pub const fn cells(self) -> usize {
        self.width * self.height
    }

    /// The board's symmetries as cell maps (`map[i]` is where cell `i`
    /// goes), the identity first: the eight rotations and reflections of a
    /// square, the four of a rectangle that keep its shape. A board and its
    /// images score the same.
    pub fn symmetries(self) -> Vec<Vec<usize>> {
        let (w, h) = (self.width, self.height);
        let mut maps = Vec::new();
        for transpose in [false, true] {
            // A transpose maps only a square onto itself.
            if transpose && w != h {
                continue;
            }
            for flip_rows in [false, true] {
                for flip_cols in [false, true] {
                    let map = (0..self.cells())
                        .map(|i| {
                            let (mut r, mut c) = (i / w, i % w);
                            if transpose {
                                (r, c) = (c, r);
                            }
                            if flip_rows {
                                r = h - 1 - r;
                            }
                            if flip_cols {
                                c = w - 1 - c;
                            }
                            r * w + c
                        })
                        .collect();
                    maps.push(map);
                }
            }
        }
        maps
    }

    /// The square size with `cells` cells, if `cells` is a perfect square.
    pub fn square_of(cells: usize) -> Option<Self> {
        let n = (cells as f64).sqrt().round() as usize;
        (n * n == cells && n > 0).then_some(Size::square(n))
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.width == self.height {
            write!(f, "{}", self.width)
        } else {
            write!(f, "{}x{}", self.width, self.height)
        }
    }
}

impl FromStr for Size {
    type Err = BoardError;
    fn from_str(s: &str) -> Result<Self, BoardError> {
        let bad = || BoardError::SizeSyntax(s.to_string());
        let s2 = s.trim().to_ascii_lowercase();
        let (w, h) = match s2.split_once('x') {
            Some((w, h)) => (
                w.trim().parse().map_err(|_| bad())?,
                h.trim().parse().map_err(|_| bad())?,
            ),
            None => {
                let n = s2.parse().map_err(|_| bad())?;
                (n, n)
            }
        };
        Size::new(w, h)
    }
}

/// Why a board string or size was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A size outside 1..=64 cells.
    #[error("a board of {width}x{height} is not supported: it needs 1 to 64 cells")]
    BadSize {
        /// Columns asked for.
        width: usize,
        /// Rows asked for.
        height: usize,
    },
    /// A size that is neither `N` nor `WxH`.
    #[error("size {0:?} is not `N` or `WxH` (for example 4 or 5x4)")]
    SizeSyntax(String),
    /// A character that is not a letter.
    #[error("board {board:?}: {found:?} is not a letter (boards are letters a-z in row order, q or qu for the Qu cell)")]
    NotALetter {
        /// The board as given.
        board: String,
        /// The offending character.
        found: char,
    },
    /// The number of cells does not fit the size.
    #[error("board {board:?} has {found} cells; {expected}")]
    WrongLength {
        /// The board as given.
        board: String,
        /// Cells found.
        found: usize,
        /// What was expected, in words.
        expected: String,
    },
}

/// A board: `size.cells()` letters in row-major order, each `0..26`
/// (`a` = 0); the letter [`QU`] is the Qu cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    size: Size,
    cells: Vec<u8>,
}

impl Board {
    /// A board from letter indices (`0..26`, row-major).
    ///
    /// # Panics
    /// If the size has no cell or more than [`MAX_CELLS`], the lengths
    /// disagree, or an index is 26 or more (programming errors).
    pub fn from_cells(size: Size, cells: Vec<u8>) -> Self {
        assert!(
            Size::new(size.width, size.height).is_ok(),
            "a board has 1 to {MAX_CELLS} cells"
        );
        assert_eq!(size.cells(), cells.len(), "board cells do not fit its size");
        assert!(cells.iter().all(|&c| c < 26), "board letters are 0..26");
        Board { size, cells }
    }

    /// Parses `LETTERS` (row-major, `q` for the Qu cell, case and whitespace
    /// ignored, `/` or `,` allowed between rows). `qu` is also accepted for
    /// the Qu cell: when the letters as written (one cell each) do not fit the
    /// size, each `qu` is read as one Qu cell. With no size the board must be
    /// square.
    pub fn parse(text: &str, size: Option<Size>) -> Result<Self, BoardError> {
        // `Size`'s fields are public: a size built by hand is checked here.
        if let Some(s) = size {
            Size::new(s.width, s.height)?;
        }
        let mut literal = Vec::with_capacity(text.len());
        for ch in text.chars() {
            if ch.is_whitespace() || ch == '/' || ch == ',' {
                continue;
            }
            if !ch.is_ascii_alphabetic() {
                return Err(BoardError::NotALetter {
                    board: text.to_string(),
                    found: ch,
                });
            }
            literal.push(ch.to_ascii_lowercase() as u8 - b'a');
        }
        let mut collapsed = Vec::with_capacity(literal.len());
        let mut i = 0;
        while i < literal.len() {
            collapsed.push(literal[i]);
            i += if literal[i] == QU && literal.get(i + 1) == Some(&(b'u' - b'a')) {
                2
            } else {
                1
            };
        }
        let fits = |cells: &Vec<u8>| match size {
            Some(s) => (s.cells() == cells.len()).then_some(s),
            None => Size::square_of(cells.len()).filter(|s| s.cells() <= MAX_CELLS),
        };
        for cells in [literal, collapsed.clone()] {
            if let Some(size) = fits(&cells) {
                return Ok(Board { size, cells });
            }
        }
        Err(BoardError::WrongLength {
            board: text.to_string(),
            found: collapsed.len(),
            expected: match size {
                Some(s) => format!("a {s} board has {}", s.cells()),
                None => "a square board needs 1, 4, 9, 16, 25, 36, 49 or 64 (give --size WxH for others)".to_string(),
            },
        })
    }

    /// The board's size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The cells' letters (`0..26`, [`QU`] for Qu), row-major.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The letter of the cell at `row`, `col`.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.size.width + col]
    }

    /// Sets the letter of cell `index` (row-major).
    pub fn set(&mut self, index: usize, letter: u8) {
        assert!(letter < 26);
        self.cells[index] = letter;
    }

    /// The text a cell shows: `"A"`..`"Z"`, `"Qu"` for the Qu cell.
    pub fn face(letter: u8) -> &'static str {
        const FACES: [&str; 26] = [
            "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Qu",
            "R", "S", "T", "U", "V", "W", "X", "Y", "Z",
        ];
        FACES[letter as usize]
    }

    /// The compact row-major form, one lowercase letter a cell (`q` = Qu):
    /// the `LETTERS` form that [`Board::parse`] reads back.
    pub fn letters(&self) -> String {
        self.cells.iter().map(|&c| (b'a' + c) as char).collect()
    }

    /// The rows as faces (`["S","E","R","S"], ...`), for display.
    pub fn rows(&self) -> Vec<Vec<&'static str>> {
        self.cells
            .chunks(self.size.width)
            .map(|r| r.iter().map(|&c| Board::face(c)).collect())
            .collect()
    }

    /// Indices of the (up to 8) neighbours of cell `i`, in increasing order.
    pub fn neighbours(size: Size, i: usize) -> impl Iterator<Item = usize> {
        let (w, h) = (size.width as isize, size.height as isize);
        let (r, c) = ((i / size.width) as isize, (i % size.width) as isize);
        (-1..=1isize)
            .flat_map(move |dr| (-1..=1isize).map(move |dc| (dr, dc)))
            .filter(|&(dr, dc)| dr != 0 || dc != 0)
            .map(move |(dr, dc)| (r + dr, c + dc))
            .filter(move |&(rr, cc)| rr >= 0 && rr < h && cc >= 0 && cc < w)
            .map(move |(rr, cc)| (rr * w + cc) as usize)
    }

    /// Whether cells `a` and `b` touch (8 directions).
    pub fn adjacent(size: Size, a: usize, b: usize) -> bool {
        let (ra, ca) = (a / size.width, a % size.width);
        let (rb, cb) = (b / size.width, b % size.width);
        a != b && ra.abs_diff(rb) <= 1 && ca.abs_diff(cb) <= 1
    }
}

impl fmt::Display for Board {
    /// Rows of faces separated by spaces, one row a line (`Qu` for the Qu cell).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, row) in self.rows().iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            let line: Vec<String> = row.iter().map(|s| format!("{s:<2}")).collect();
            write!(f, "{}", line.join(" ").trim_end())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_round_trip() {
        let b = Board::parse("PERS LATG SINE TERS", None).unwrap();
        assert_eq!(b.size(), Size::square(4));
        assert_eq!(b.letters(), "perslatgsineters");
        assert_eq!(Board::parse(&b.letters(), None).unwrap(), b);
        let q = Board::parse("quabcdefghijklmno", None).unwrap();
        assert_eq!(q.cells()[0], QU);
        assert_eq!(q.letters(), "qabcdefghijklmno");
        assert!(Board::parse("abc", None).is_err());
        assert!(Board::parse("ab1d", None).is_err());
        assert_eq!(
            Board::parse("abcdef", Some(Size::new(3, 2).unwrap()))
                .unwrap()
                .size()
                .width,
            3
        );
    }

    #[test]
    fn sizes_built_by_hand_are_checked() {
        let e = Board::parse(&"e".repeat(81), Some(Size::square(9))).unwrap_err();
        assert!(matches!(e, BoardError::BadSize { .. }), "{e}");
        assert!(Board::parse("", Some(Size::square(0))).is_err());
        assert!(
            Board::parse(&"e".repeat(81), None).is_err(),
            "no 9x9 by its length"
        );
    }

    #[test]
    fn neighbours_of_corner_and_middle() {
        let s = Size::square(4);
        assert_eq!(Board::neighbours(s, 0).collect::<Vec<_>>(), vec![1, 4, 5]);
        assert_eq!(Board::neighbours(s, 5).count(), 8);
        assert!(Board::adjacent(s, 0, 5));
        assert!(!Board::adjacent(s, 3, 4));
    }

    proptest::proptest! {
        #[test]
        fn parse_never_panics(s in "\\PC{0,80}") {
            let _ = Board::parse(&s, None);
            let _ = s.parse::<Size>();
        }

        #[test]
        fn letters_round_trip(w in 1usize..8, h in 1usize..8, cells in proptest::collection::vec(0u8..26, 64)) {
            let size = Size::new(w, h).unwrap();
            let b = Board::from_cells(size, cells[..size.cells()].to_vec());
            proptest::prop_assert_eq!(Board::parse(&b.letters(), Some(size)).unwrap(), b.clone());
            proptest::prop_assert_eq!(Board::parse(&b.to_string(), Some(size)).unwrap(), b);
        }
    }

    #[test]
    fn size_syntax() {
        assert_eq!("5".parse::<Size>().unwrap(), Size::square(5));
        assert_eq!(
            "5x4".parse::<Size>().unwrap(),
            Size {
                width: 5,
                height: 4
            }
        );
        assert!("9x9".parse::<Size>().is_err());
        assert!("x".parse::<Size>().is_err());
    }
}
