/// The report's script: builds the page from the JSON data block with `textContent` and DOM calls only (no markup
/// from data, no `eval`, no request), renders the filtered list in chunks of 200 as it scrolls into view, puts
/// failures first and opens them, filters by status, tag and text, and follows deep links `#file:line`.
enum HTMLScript {
    static let js = #"""
        (function(){'use strict';
        var D=JSON.parse(document.getElementById('data').textContent),R=D.run,S=D.scenarios;
        var ORDER={failed:0,error:1,undefined:2,unknown:3,quarantined:4,notRun:5,passed:6},LABEL={failed:'failed',error:'error',undefined:'undefined',unknown:'unknown',quarantined:'quarantined',notRun:'not run',passed:'passed'};
        var CHUNK=200,OPEN_FAILURES=50;
        function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=String(text);return e}
        function add(p){for(var i=1;i<arguments.length;i++){if(arguments[i])p.appendChild(arguments[i])}return p}
        function ms(n){return n>=1000?(n/1000).toFixed(2)+' s':n+' ms'}
        function href(id){return '#'+encodeURIComponent(id).replace(/%3A/gi,':').replace(/%2F/gi,'/')}
        S.forEach(function(s,i){s.i=i;var a=s.a[s.a.length-1]||{};s.text=(s.n+'\n'+s.f+'\n'+s.id+'\n'+s.t.join(' ')+'\n'+s.a.map(function(a){return (a.steps||[]).map(function(x){return x[0]+'\n'+(x[3]||'')+'\n'+(x[4]||'')}).join('\n')+'\n'+(a.m||'')+'\n'+(a.out||'')+'\n'+(a.req||[]).join('\n')}).join('\n')).toLowerCase()});
        var sorted=S.slice().sort(function(x,y){return (ORDER[x.s]==null?4:ORDER[x.s])-(ORDER[y.s]==null?4:ORDER[y.s])||x.i-y.i});
        var counts={};S.forEach(function(s){counts[s.s]=(counts[s.s]||0)+1});
        var state={status:null,tag:'',q:''},shown=[],rendered=0,list=document.getElementById('list'),more=document.getElementById('more');
        // The header: verdict, facts, counts (buttons that filter).
        // Never "all passed" for a run that failed: scenarios not run, run-level errors (hooks, feature files that did
        // not load) and a failure no result names (coverage, the file's own word) are said (r15b).
        var notRun=counts.notRun||0,bad=S.length-(counts.passed||0)-notRun-(counts.quarantined||0),runBad=R.runErrors.length,parts=[];
        if(!S.length)parts.push('no scenario ran');if(bad)parts.push(bad+' not passed');if(notRun)parts.push(notRun+' not run');if(runBad)parts.push(runBad+' run-level error'+(runBad==1?'':'s'));
        if(!parts.length)parts.push(R.exitCode?'all passed, but the run failed: '+(R.failure||'exit code '+R.exitCode):'all passed');
        document.getElementById('verdict').textContent=(R.incomplete?'INCOMPLETE run ('+R.incomplete+'): ':'')+S.length+' scenario'+(S.length==1?'':'s')+', '+parts.join(', ')+(counts.quarantined?', '+counts.quarantined+' quarantined (failed, not failing the run)':'')+', exit code '+R.exitCode;
        var facts=document.getElementById('facts');
        function fact(k,v){add(facts,el('dt',null,k),el('dd',null,v))}
        fact('Duration',ms(Math.round(R.seconds*1000)));fact('Shards merged',R.shards);
        R.commandLines.forEach(function(c){fact('Command',c)});if(R.runIds.length)fact('Run',R.runIds.join(', '));if(R.error)fact('Error',R.error);R.runErrors.forEach(function(e){fact('Run error',e)});
        var cbox=document.getElementById('counts');
        Object.keys(ORDER).sort(function(a,b){return ORDER[a]-ORDER[b]}).forEach(function(k){if(!counts[k])return;var b=el('button','c-'+k,LABEL[k]+': '+counts[k]);b.type='button';b.setAttribute('aria-pressed','false');b.dataset.status=k;
          b.addEventListener('click',function(){state.status=state.status===k?null:k;Array.prototype.forEach.call(cbox.children,function(c){c.setAttribute('aria-pressed',String(c.dataset.status===state.status))});apply()});cbox.appendChild(b)});
        var tags={};S.forEach(function(s){s.t.forEach(function(t){tags[t]=1})});var tagSel=document.getElementById('tag');
        Object.keys(tags).sort().forEach(function(t){var o=el('option',null,t);o.value=t;tagSel.appendChild(o)});
        // ANSI SGR colours as spans; every other escape (their 8-bit C1 forms too) and control character dropped; a
        // string (OSC title or link, DCS…) never terminated ends at its line's end, so it hides no later line.
        var ESC=/\x1b\[([0-9;:]*)m|(?:\x1b\[|\x9b)[0-9;:?<=>]*[ -\/]*[@-~]|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x9c|\x1b\\)?|\x1b[ -\/]*[0-~]?|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;
        // Each stream's section of a transcript starts plain: a colour one stream never reset stays in it.
        function term(text){var pre=el('pre','term');String(text).split(/\n(?=--- last \d+ lines? of [a-z]+ ---\n)/).forEach(function(part,i){if(i)pre.appendChild(document.createTextNode('\n'));section(pre,part)});return pre}
        function section(pre,text){var st={},last=0,m;ESC.lastIndex=0;
          function flush(t){if(!t)return;var c=[];if(st.b)c.push('b');if(st.dim)c.push('dim');if(st.i)c.push('i');if(st.u)c.push('u');if(st.f!=null)c.push('f'+st.f);if(st.g!=null)c.push('g'+st.g);pre.appendChild(c.length?el('span',c.join(' '),t):document.createTextNode(t))}
          while((m=ESC.exec(text))){flush(text.slice(last,m.index));last=ESC.lastIndex;if(m[1]!=null){var p=m[1].split(/[;:]/).map(Number);for(var j=0;j<p.length;j++){var n=p[j]||0;
            if(n===0)st={};else if(n===1)st.b=1;else if(n===2)st.dim=1;else if(n===3)st.i=1;else if(n===4)st.u=1;else if(n===22){st.b=0;st.dim=0}else if(n===23)st.i=0;else if(n===24)st.u=0;
            else if(n>=30&&n<=37)st.f=n-30;else if(n>=90&&n<=97)st.f=n-82;else if(n===39)st.f=null;else if(n>=40&&n<=47)st.g=n-40;else if(n>=100&&n<=107)st.g=n-100;else if(n===49)st.g=null;
            else if(n===38||n===48){var k=n===38?'f':'g';if(p[j+1]===5){var v=p[j+2];st[k]=(v<16?(k=='g'?v%8:v):null);j+=2}else if(p[j+1]===2){st[k]=null;j+=4}}}}}
          flush(text.slice(last))}
        function diff(text){var pre=el('pre','diff');String(text).replace(ESC,'').split('\n').forEach(function(l,i){var c=/^[-−] |^-[^-]|^-$/.test(l)?'del':/^[+] |^\+[^+]|^\+$/.test(l)?'ins':null;if(i)pre.appendChild(document.createTextNode('\n'));pre.appendChild(c?el('span',c,l):document.createTextNode(l))});return pre}
        function attempt(a,s){var box=el('div','attempt');
          if(s.a.length>1)add(box,el('h3',null,'Attempt '+(a.n+1)+': '+(LABEL[a.s]||a.s)+(a.retried?' (retried)':'')));
          if(a.unfinished)add(box,el('p','warn','This attempt did not finish (the run was cut short).'));
          var t=el('table','steps');(a.steps||[]).forEach(function(x){var tr=el('tr');add(tr,el('td','k-'+x[1],x[1].toLowerCase()),el('td',null,x[0]),el('td','ms',ms(x[2])));t.appendChild(tr);
            if(x[4]){var tr3=el('tr'),td3=el('td');td3.colSpan=3;add(td3,el('pre','arg',x[4]));add(t,add(tr3,td3))}
            if(x[3]&&x[3]!==a.m){var tr2=el('tr'),td=el('td');td.colSpan=3;td.appendChild(diff(x[3]));add(t,add(tr2,td))}});add(box,el('h3',null,'Steps'),t);
          if(a.m){add(box,el('h3',null,'Why it failed'+(a.fs?': '+a.fs:'')),diff(a.m))}
          if(a.req){var ul=el('ul','journal');a.req.forEach(function(r){var li=el('li',/near miss/i.test(r)?'near':null,r);ul.appendChild(li)});add(box,el('h3',null,'Mock server journal: requests no route matched (near misses)'),ul)}
          if(a.out){add(box,el('h3',null,'Output (stdout and stderr, last lines)'),term(a.out))}
          if(a.art){add(box,el('h3',null,'Artefacts'),add(el('ul'),el('li',null,a.art)))}
          (a.att||[]).forEach(function(x){add(box,el('h3',null,'Attachment '+(x[0]||'')+' ('+x[1]+')'),/^text\/|json/.test(x[1])?term(x[2]):el('p',null,x[2].length+' characters'))});
          return box}
        function body(d,s){if(d.dataset.done)return;d.dataset.done='1';var b=el('div','body');for(var i=s.a.length-1;i>=0;i--)b.appendChild(attempt(s.a[i],s));d.appendChild(b)}
        function card(s,open){var d=el('details','sc s-'+s.s);d.id=s.id;var sum=el('summary');
          var a=el('a','loc',s.id);a.href=href(s.id);a.addEventListener('click',function(e){e.stopPropagation()});
          add(sum,el('span','st',LABEL[s.s]||s.s),s.flaky?el('span','flaky','flaky'):null,s.q?el('span','flaky','quarantined'):null,el('span','name',s.n),el('span','feat',s.f),a,el('span','dur',ms(s.d)),s.a.length>1?el('span','flaky',s.a.length+' attempts'):null);
          var tg=el('span','tags');s.t.forEach(function(t){tg.appendChild(el('span','tag',t))});sum.appendChild(tg);d.appendChild(sum);
          d.addEventListener('toggle',function(){if(d.open)body(d,s)});if(open){d.open=true;body(d,s)}return d}
        var opened=0;
        function renderMore(){var end=Math.min(shown.length,rendered+CHUNK),f=document.createDocumentFragment();for(;rendered<end;rendered++){var s=shown[rendered],o=(s.s!=='passed'&&s.s!=='notRun'&&opened<OPEN_FAILURES);if(o)opened++;f.appendChild(card(s,o))}list.appendChild(f);more.hidden=rendered>=shown.length;more.textContent='Show more ('+(shown.length-rendered)+' left)'}
        function apply(){var q=state.q.toLowerCase();shown=sorted.filter(function(s){return (!state.status||s.s===state.status)&&(!state.tag||s.t.indexOf(state.tag)>=0)&&(!q||s.text.indexOf(q)>=0)});
          list.textContent='';rendered=0;opened=0;renderMore();document.getElementById('shown').textContent=shown.length+' of '+S.length+' shown'}
        more.addEventListener('click',renderMore);
        if('IntersectionObserver' in window){new IntersectionObserver(function(e){if(e[0].isIntersecting&&rendered<shown.length)renderMore()},{rootMargin:'600px'}).observe(more)}
        var timer;document.getElementById('search').addEventListener('input',function(e){clearTimeout(timer);timer=setTimeout(function(){state.q=e.target.value;apply()},150)});
        tagSel.addEventListener('change',function(){state.tag=tagSel.value;apply()});
        document.getElementById('expand').addEventListener('click',function(){Array.prototype.forEach.call(list.children,function(d){d.open=true})});
        document.addEventListener('keydown',function(e){if(e.key==='/'&&document.activeElement.tagName!=='INPUT'){e.preventDefault();document.getElementById('search').focus()}});
        function follow(){if(!location.hash)return;var id;try{id=decodeURIComponent(location.hash.slice(1))}catch(x){return}var t=S.filter(function(s){return s.id===id})[0];if(!t)return;
          var d=document.getElementById(id);if(!d){state={status:null,tag:'',q:''};apply();while(!document.getElementById(id)&&rendered<shown.length)renderMore();d=document.getElementById(id)}
          if(d){d.open=true;body(d,t);d.scrollIntoView();d.querySelector('summary').focus()}}
        window.addEventListener('hashchange',follow);
        window.addEventListener('beforeprint',function(){Array.prototype.forEach.call(list.children,function(d){d.open=true})});
        apply();follow();
        })();
        """#
}
