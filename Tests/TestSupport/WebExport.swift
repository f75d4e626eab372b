// WebExport.swift — an ActivityWatch export with aw-watcher-web buckets, as aw-server writes one (window, AFK, and a Chromium and a Firefox web bucket of one laptop), for the reader's, the store's and the binary's tests; and the page paths and titles in it that must never be kept.
import Foundation

public enum WebExport {
    /// 2026-03-02, UTC. Windows: Chromium 09:00–09:30, Terminal 09:30–09:40, Firefox 09:40–10:00;
    /// not AFK 09:00–10:00. Chromium's tabs (aw-watcher-web calls it `chrome`):
    /// docs.python.org 09:00–09:15, mail.example.com 09:15–09:30 (a port, upper case), an
    /// incognito tab 09:20–09:21, the new-tab page and a file 09:28–09:30. Firefox's (an older
    /// watcher's bucket: no host in its id, host `unknown`): localhost 09:40–09:55, about:blank.
    public static let text = #"""
        {
          "buckets": {
            "aw-watcher-window_laptop": {
              "id": "aw-watcher-window_laptop", "created": "2026-03-01T08:00:00.000000+00:00", "name": null,
              "type": "currentwindow", "client": "aw-watcher-window", "hostname": "laptop", "data": {},
              "events": [
                {"id": 3, "timestamp": "2026-03-02T09:40:00+00:00", "duration": 1200.0, "data": {"app": "Firefox", "title": "todo - Mozilla Firefox"}},
                {"id": 2, "timestamp": "2026-03-02T09:30:00+00:00", "duration": 600.0, "data": {"app": "Terminal", "title": "~"}},
                {"id": 1, "timestamp": "2026-03-02T09:00:00+00:00", "duration": 1800.0, "data": {"app": "Chromium", "title": "json — JSON encoder and decoder"}}
              ]
            },
            "aw-watcher-afk_laptop": {
              "id": "aw-watcher-afk_laptop", "created": "2026-03-01T08:00:00.000000+00:00", "name": null,
              "type": "afkstatus", "client": "aw-watcher-afk", "hostname": "laptop", "data": {},
              "events": [{"id": 4, "timestamp": "2026-03-02T09:00:00+00:00", "duration": 3600.0, "data": {"status": "not-afk"}}]
            },
            "aw-watcher-web-chrome_laptop": {
              "id": "aw-watcher-web-chrome_laptop", "created": "2026-03-01T08:00:00.000000+00:00", "name": null,
              "type": "web.tab.current", "client": "aw-client-web", "hostname": "laptop", "data": {},
              "events": [
                {"id": 10, "timestamp": "2026-03-02T09:28:00+00:00", "duration": 60.0, "data": {"url": "file:///home/me/diary-secret.txt", "title": "diary-secret.txt", "audible": false, "incognito": false, "tabCount": 3}},
                {"id": 9, "timestamp": "2026-03-02T09:29:00+00:00", "duration": 60.0, "data": {"url": "chrome://newtab/", "title": "New Tab", "audible": false, "incognito": false, "tabCount": 3}},
                {"id": 8, "timestamp": "2026-03-02T09:20:00+00:00", "duration": 60.0, "data": {"url": "https://incognito-only.example/private", "title": "Private thing", "audible": false, "incognito": true, "tabCount": 1}},
                {"id": 7, "timestamp": "2026-03-02T09:15:00+00:00", "duration": 900.0, "data": {"url": "https://Mail.Example.com:443/inbox/private-path?folder=secret", "title": "Inbox (3) - my secret mail", "audible": false, "incognito": false, "tabCount": 2}},
                {"id": 6, "timestamp": "2026-03-02T09:00:00+00:00", "duration": 900.0, "data": {"url": "https://docs.python.org/3/library/json.html?q=hidden#frag", "title": "json — JSON encoder and decoder", "audible": true, "incognito": false, "tabCount": 2}}
              ]
            },
            "aw-watcher-web-firefox": {
              "id": "aw-watcher-web-firefox", "created": "2026-03-01T08:00:00.000000+00:00", "name": null,
              "type": "web.tab.current", "client": "aw-client-web", "hostname": "unknown", "data": {},
              "events": [
                {"id": 12, "timestamp": "2026-03-02T09:55:00+00:00", "duration": 300.0, "data": {"url": "about:blank", "title": "New Tab", "audible": false, "incognito": false, "tabCount": 1}},
                {"id": 11, "timestamp": "2026-03-02T09:40:00+00:00", "duration": 900.0, "data": {"url": "http://localhost:8000/notes/todo.html", "title": "todo", "audible": false, "incognito": false, "tabCount": 1}}
              ]
            }
          }
        }
        """#

    /// What of the export must never reach the store: paths, queries, fragments, titles, and
    /// the hosts of an incognito tab and of non-web pages.
    public static let neverKept = [
        "library/json", "hidden", "frag", "private-path", "folder=secret", "Inbox", "my secret mail", "notes/todo", "todo.html",
        "JSON encoder", "incognito-only", "Private thing", "diary-secret", "newtab", "New Tab", "about:blank",
    ]
}
