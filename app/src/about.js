// About: the story of Hostage Chess in the app's own words, every fact
// followed by the number of the source it comes from, and the sources
// listed (author, title, where published, address) at the end. Only what a
// listed source says is told here; what could not be confirmed is left out.
// Reached from the footer and from Learn (#/about); no nav entry.

/** The sources, cited in the text as [n] by their `id`. */
const SOURCES = [
  { id: 'leslie-intro', author: 'John Leslie', title: 'Hostage Chess (an introduction by its inventor)', where: 'Mayhematics', url: 'http://www.mayhematics.com/s/hostage.htm' },
  { id: 'wikipedia', author: 'Wikipedia contributors', title: 'Hostage chess', where: 'Wikipedia, the free encyclopedia', url: 'https://en.wikipedia.org/wiki/Hostage_chess' },
  { id: 'cvp-games', author: 'The Chess Variant Pages', title: 'Hostage Chess records', where: 'chessvariants.org', url: 'http://www.chessvariants.org/difftaking.dir/hostagegames.html' },
  { id: 'cvp-preset', author: 'The Chess Variant Pages', title: 'Hostage Chess (Game Courier preset)', where: 'chessvariants.com', url: 'https://www.chessvariants.com/play/hostage_chess.html' },
  { id: 'vc32', author: 'graywyvern', title: 'Here, briefly, are the rules for Hostage Chess (quoting Variant Chess no. 32)', where: 'blog post, 4 May 2005', url: 'http://graywyvern.blogspot.com/2005/05/here-briefly-are-rules-for-hostage.html' },
  { id: 'chesstalk-program', author: 'ChessTalk forum', title: 'Hostage Chess – a variant with a free program', where: 'forum.chesstalk.com', url: 'https://forum.chesstalk.com/forum/chesstalk-canada-s-chess-discussion-board-go-to-www-strategygames-ca-for-your-chess-needs/2465-hostage-chess-a-variant-with-a-free-program' },
  { id: 'closer', author: 'John Leslie', title: 'Hostage Chess and HostageMaster (book excerpt)', where: 'Closer To Truth, 27 September 2021', url: 'https://closertotruth.com/news/hostage-chess-and-hostagemaster/' },
  { id: 'book', author: 'John Leslie', title: 'Hostage Chess', where: 'Aristophanes Press, 2012 (book)', url: null },
  { id: 'chesstalk-wc', author: 'ChessTalk forum', title: 'Hostage Chess World Championship – the Great Canadian Chess Variant', where: 'forum.chesstalk.com', url: 'https://forum.chesstalk.com/forum/chesstalk-canada-s-chess-discussion-board-go-to-www-strategygames-ca-for-your-chess-needs/220547-hostage-chess-world-championship-the-great-canadian-chess-variant' },
  { id: 'can-open', author: 'Canadian Open Chess Championship', title: 'Hostage Chess', where: 'can-open.ca', url: 'http://can-open.ca/hostagechess.html' },
];

/**
 * The story, section by section. In each paragraph `[id]` (one or more,
 * comma-separated) cites sources by id; `*text*` is a title in italics.
 */
const STORY = [
  ['The game', [
    'Hostage Chess is chess in which a captured man is not gone for good. John Leslie invented it in 1997 [wikipedia]. A man you capture goes to your prison as a hostage. Instead of a move you may hand one of your hostages over to your opponent’s airfield and, in return, take one of your own men out of their prison and put it straight onto an empty square; the hostage you give up must be worth at least as much as the man you get back. And a man waiting on your own airfield may be dropped onto the board instead of a move [wikipedia, vc32].',
    'The summary of the rules in *Variant Chess* no. 32 asks for nothing more than a chess set and four beer mats: two for each player, an airfield on the left and a prison on the right [vc32].',
  ]],
  ['From shogi, by way of Chessgi', [
    'In shogi, the chess of Japan, a captured man changes sides and can come back onto the board to fight for its captor. Chessgi brings that rule to the western game, and Leslie found it too violent: western men are stronger and fewer than shogi’s, so every capture that at once fights for the other side swings the game hard, and a second box of men is needed so that a captive can change colour [leslie-intro].',
    'His answer was to keep captives as hostages until they are exchanged, to make whoever starts an exchange give a man of equal or higher value, and so to need only one set [leslie-intro]. The Chess Variant Pages sum it up as a hybrid of chess and shogi that is played with a single chess set [cvp-preset].',
    'Leslie is a philosopher; the early game records ask for games to be sent to him at the Department of Philosophy of the University of Guelph, in Ontario [cvp-games]. A friend who posted on his behalf describes him as a retired Guelph professor, a Go player who prefers shogi to chess [chesstalk-program].',
  ]],
  ['In print and online', [
    'David Pritchard published three early games in his article in *Variant Chess* in the summer of 1999 [cvp-games], and that year he called Hostage Chess “the variant of the decade” [wikipedia]. The game was published in the magazines *Nost-algia* (issue 375), *Eteroscacco* (86–88) and *Variant Chess* (32 and later) [wikipedia].',
    'Pritchard gave the game a whole chapter of his book *Popular Chess Variants* (Batsford, 2000), before going on to shogi itself [leslie-intro, closer].',
    'The Chess Variant Pages made it their Recognized Variant of the Month in January 2005 [wikipedia]; they keep its early game records [cvp-games] and a Game Courier preset that enforces the rules and has operators for exchanges and drops [cvp-preset].',
  ]],
  ['The book and HostageMaster', [
    'Leslie wrote a book on the game, *Hostage Chess*, published by Aristophanes Press in 2012 [book]. His website offers it free, together with HostageMaster, a free program that plays Hostage Chess against people or against itself [closer].',
    'HostageMaster is the work of Paul Connors, a player of both western chess and shogi; it was first called SWAT [chesstalk-program].',
  ]],
  ['A world championship', [
    'Leslie put up the prize fund for the first Hostage Chess World Championship, played on 16 July alongside the Canadian Open in Hamilton [can-open, chesstalk-wc]. Three grandmasters and two international masters took part, and Shawn Rodrigue-Lemieux won with five wins out of five [chesstalk-wc].',
  ]],
];

const escape = (t) => t.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** A paragraph of STORY as HTML: titles in italics, citations as links to the source list. */
function paragraph(text) {
  const number = (id) => {
    const i = SOURCES.findIndex((s) => s.id === id.trim());
    if (i < 0) throw new Error(`about.js cites an unknown source: ${id}`);
    return i + 1;
  };
  return escape(text)
    .replace(/\*([^*]+)\*/g, '<cite>$1</cite>')
    .replace(/ ?\[([a-z0-9, -]+)\]/g, (_, ids) => ids.split(',').map((id) => {
      const n = number(id);
      return `<sup class="cite"><a href="#about-source-${n}" aria-label="source ${n}">[${n}]</a></sup>`;
    }).join(''));
}

function source(s, i) {
  const title = s.url ? `<a href="${escape(s.url)}" rel="external noopener">${escape(s.title)}</a>` : `<cite>${escape(s.title)}</cite>`;
  const url = s.url ? ` <span class="url">${escape(s.url)}</span>` : '';
  return `<li id="about-source-${i + 1}">${escape(s.author)}, ${title}. ${escape(s.where)}.${url}</li>`;
}

/** Mounts the About page into `root`. */
export function mount(root) {
  root.innerHTML = `
    <article class="card about" aria-labelledby="about-title">
      <h1 id="about-title">About Hostage Chess</h1>
      ${STORY.map(([heading, paras]) => `<section><h2>${escape(heading)}</h2>${paras.map((p) => `<p>${paragraph(p)}</p>`).join('')}</section>`).join('')}
      <section>
        <h2>In this app</h2>
        <p>The rules played here are those of the <code>hostage-chess</code> package; <a href="#/learn">Learn</a> teaches them task by task, and <a href="#/play">Play</a> starts a game.</p>
      </section>
      <section class="sources" aria-labelledby="about-sources-title">
        <h2 id="about-sources-title">Sources</h2>
        <ol>${SOURCES.map(source).join('')}</ol>
      </section>
    </article>`;
  return {};
}
