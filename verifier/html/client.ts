/**
 * The page's script (plain ES2020, no library): the trials table (filter, sort, show more) and the trial
 * pages, drawn from the embedded JSON when their link is followed (#trial/<id>), one at a time. Written
 * without template literals so it can live in this string.
 */
export const CLIENT_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var PAGE = 300;
  var FIXED = [
    { key: 'agent', label: 'configuration', format: 'text' },
    { key: 'task', label: 'task (opens the trial)', format: 'text' },
    { key: 'attempt', label: 'try', format: 'int' },
    { key: 'level', label: 'level', format: 'text' },
    { key: 'status', label: 'status', format: 'text' }
  ];
  var columns = FIXED.concat(data.columns);
  var indexById = {};
  data.rows.forEach(function (r, i) { indexById[r.id] = i; });
  var state = { sort: null, desc: false, shown: PAGE };

  function esc(s) {
    return String(s == null ? '' : s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function fmt(v, format) {
    if (v === null || v === undefined || v === '') return '–';
    if (typeof v === 'boolean') return v ? 'yes' : 'no';
    if (typeof v !== 'number') return String(v);
    if (format === 'pct') return (100 * v).toFixed(0) + '%';
    if (format === 'usd') return '$' + v.toFixed(4);
    if (format === 'int') return Number.isInteger(v) ? String(v) : v.toFixed(1);
    return String(v);
  }
  function value(row, key) { return key in row ? row[key] : row.cells[key]; }
  function trialHref(id) { return '#trial/' + encodeURIComponent(id); }

  function options(id, values) {
    var select = document.getElementById(id);
    values.forEach(function (v) {
      var o = document.createElement('option');
      o.value = v; o.textContent = v; select.appendChild(o);
    });
    select.addEventListener('change', function () { state.shown = PAGE; drawRows(); });
  }
  function distinct(key) {
    var seen = {};
    data.rows.forEach(function (r) { seen[r[key]] = true; });
    return Object.keys(seen).sort();
  }

  function drawHead() {
    var head = document.querySelector('#trials-table thead');
    head.innerHTML = '<tr>' + columns.map(function (c) {
      var mark = state.sort === c.key ? (state.desc ? ' ▼' : ' ▲') : '';
      return '<th data-key="' + esc(c.key) + '" class="' + (c.format === 'text' ? '' : 'num') + '" title="sort">' + esc(c.label) + mark + '</th>';
    }).join('') + '</tr>';
  }

  function filtered() {
    var text = document.getElementById('filter-text').value.trim().toLowerCase();
    var agent = document.getElementById('filter-agent').value;
    var variant = document.getElementById('filter-variant').value;
    var level = document.getElementById('filter-level').value;
    var status = document.getElementById('filter-status').value;
    var rows = data.rows.filter(function (r) {
      if (agent && r.agent !== agent) return false;
      if (variant && r.variant !== variant) return false;
      if (level && r.level !== level) return false;
      if (status && r.status !== status) return false;
      if (!text) return true;
      var hay = (r.id + ' ' + r.task + ' ' + Object.keys(r.cells).map(function (k) { return r.cells[k]; }).join(' ')).toLowerCase();
      return hay.indexOf(text) >= 0;
    });
    if (state.sort) {
      var key = state.sort, sign = state.desc ? -1 : 1;
      rows.sort(function (a, b) {
        var x = value(a, key), y = value(b, key);
        if (x === y) return 0;
        if (x === null || x === undefined) return 1;
        if (y === null || y === undefined) return -1;
        return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * sign;
      });
    }
    return rows;
  }

  function drawRows() {
    var rows = filtered();
    var shown = rows.slice(0, state.shown);
    document.querySelector('#trials-table tbody').innerHTML = shown.map(function (r) {
      return '<tr class="status-' + esc(r.status) + '" data-trial="' + esc(r.id) + '">' + columns.map(function (c) {
        var v = value(r, c.key);
        if (c.key === 'task') return '<td><a href="' + esc(trialHref(r.id)) + '" title="' + esc(r.id) + '">' + esc(r.task) + '</a></td>';
        var cls = c.format === 'text' ? '' : 'num';
        if (c.key === 'fa' && v !== null) cls += v ? ' good' : ' bad';
        return '<td class="' + cls + '" data-key="' + esc(c.key) + '">' + esc(fmt(v, c.format)) + '</td>';
      }).join('') + '</tr>';
    }).join('');
    document.getElementById('trial-count').textContent = '(' + rows.length + ' of ' + data.rows.length + ')';
    document.getElementById('trials-more').hidden = rows.length <= state.shown;
  }

  function table(t) {
    var html = '<section class="detail"><h3>' + esc(t.title) + '</h3>' + (t.note ? '<p class="note">' + esc(t.note) + '</p>' : '');
    if (!t.columns.length) return html + '</section>';
    if (!t.rows.length) return html + '</section>';
    html += '<div class="scroll"><table class="detail-table"><thead><tr>' + t.columns.map(function (c) {
      return '<th class="' + (c.format === 'text' ? '' : 'num') + '">' + esc(c.label) + '</th>';
    }).join('') + '</tr></thead><tbody>';
    t.rows.forEach(function (row, i) {
      var mark = t.marks && t.marks[i] ? ' class="' + esc(t.marks[i]) + '"' : '';
      html += '<tr' + mark + '>' + t.columns.map(function (c) {
        var v = row[c.key];
        var cls = c.format === 'text' ? 'text col-' + c.key : 'num';
        if (c.key === 'ok' && typeof v === 'boolean') return '<td class="' + (v ? 'good' : 'bad') + '">' + (v ? '✓' : '✗') + '</td>';
        if (c.key === 'preview') return '<td class="' + cls + '"><div>' + esc(fmt(v, c.format)) + '</div></td>';
        return '<td class="' + cls + '">' + esc(fmt(v, c.format)) + '</td>';
      }).join('') + '</tr>';
    });
    return html + '</tbody></table></div></section>';
  }

  function trialPage(id) {
    var i = indexById[id];
    var page = document.getElementById('trial-page');
    if (i === undefined) {
      page.innerHTML = '<p><a href="#trials">← all trials</a></p><h2>No trial ' + esc(id) + ' in this report</h2>';
      return;
    }
    var row = data.rows[i];
    page.setAttribute('data-loading', id);
    unpack(document.getElementById('trial-data-' + i).textContent).then(function (d) {
      if (page.getAttribute('data-loading') === id) drawTrial(page, row, d);
    }).catch(function (e) {
      page.innerHTML = '<p><a href="#trials">← all trials</a></p><h2>Cannot read the data of trial ' + esc(id) + '</h2><pre>' + esc(e && e.message) + '</pre>';
    });
  }

  /** A trial's data: base64 of deflated JSON (see page.ts packTrial). */
  function unpack(text) {
    var bytes = Uint8Array.from(atob(text.trim()), function (c) { return c.charCodeAt(0); });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    return new Response(stream).text().then(JSON.parse);
  }

  function drawTrial(page, row, d) {
    var facts = d.facts.map(function (f) { return '<tr><th>' + esc(f[0]) + '</th><td>' + esc(fmt(f[1], 'text')) + '</td></tr>'; }).join('');
    var score = d.score;
    var good = row.cells.fa === 1 || row.cells.success === 1 || score && score.reward === 1;
    // Families whose agents write no answer file (WikiRace) show the verdict alone.
    var answered = d.answer !== null || score && score.expected_answer !== undefined;
    var outcome = score
      ? '<div class="outcome ' + (good ? 'good' : 'bad') + '">' + (answered ? '<div class="label">answer</div><div class="value" id="trial-answer">' + esc(d.answer === null ? '(none)' : d.answer.trim() || '(empty)') + '</div>' : '') +
        (score.expected_answer !== undefined ? '<div class="label">expected</div><div class="value" id="trial-expected">' + esc(score.expected_answer) + '</div>' : '') +
        '<div class="verdict" id="trial-verdict">' + esc(d.verdict || '') + '</div></div>'
      : '<div class="outcome muted"><div class="verdict">not scored: ' + esc(d.error || 'infrastructure error') + '</div></div>';
    var headline = data.columns.filter(function (c) { return c.key !== 'answer'; }).map(function (c) {
      return '<div class="figure" data-figure="' + esc(c.key) + '"><div class="label">' + esc(c.label) + '</div><div class="value">' + esc(fmt(row.cells[c.key], c.format)) + '</div></div>';
    }).join('');
    page.innerHTML =
      '<p class="crumbs"><a href="#trials">← all trials</a> · <a href="#">overview</a></p>' +
      '<h2 id="trial-title">' + esc(d.id) + '</h2>' +
      '<p class="sub">' + esc(row.agent) + ' on ' + esc(row.task) + ' (' + esc(row.variant) + ', ' + esc(row.level) + ') · <span class="badge status-' + esc(row.status) + '">' + esc(row.status) + '</span>' +
      (d.error ? ' · <span class="warn">' + esc(d.error) + '</span>' : '') + '</p>' +
      '<div class="trial-head">' + outcome + '<div class="figures">' + headline + '</div></div>' +
      '<details class="instruction"' + (d.instruction ? '' : ' hidden') + '><summary>Instruction (what the agent was told)</summary><pre>' + esc(d.instruction || '') + '</pre></details>' +
      d.tables.map(table).join('') +
      '<section class="detail"><h3>Run</h3><table class="facts">' + facts + '</table><p class="note">Trial folder: <code>' + esc(d.dir) + '</code></p></section>' +
      (d.agentOutput ? '<details><summary>Agent output</summary><pre>' + esc(d.agentOutput) + '</pre></details>' : '') +
      (score ? '<details><summary>score.json</summary><pre id="trial-score">' + esc(JSON.stringify(score, null, 2)) + '</pre></details>' : '');
  }

  function route() {
    var hash = location.hash;
    var onTrial = hash.indexOf('#trial/') === 0;
    document.getElementById('overview').hidden = onTrial;
    document.getElementById('trial-page').hidden = !onTrial;
    if (onTrial) {
      trialPage(decodeURIComponent(hash.slice('#trial/'.length)));
      window.scrollTo(0, 0);
    } else if (hash.length > 1) {
      var target = document.getElementById(hash.slice(1));
      if (target) target.scrollIntoView();
    } else {
      window.scrollTo(0, 0);
    }
  }

  options('filter-agent', distinct('agent'));
  options('filter-variant', distinct('variant'));
  options('filter-level', distinct('level'));
  options('filter-status', distinct('status'));
  document.getElementById('filter-text').addEventListener('input', function () { state.shown = PAGE; drawRows(); });
  document.querySelector('#trials-table thead').addEventListener('click', function (e) {
    var th = e.target.closest('th');
    if (!th) return;
    var key = th.getAttribute('data-key');
    state.desc = state.sort === key ? !state.desc : false;
    state.sort = key;
    drawHead(); drawRows();
  });
  document.getElementById('show-more').addEventListener('click', function () { state.shown += PAGE; drawRows(); });
  window.addEventListener('hashchange', route);
  drawHead(); drawRows(); route();
})();
`;
