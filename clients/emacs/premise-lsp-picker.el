;;; premise-lsp-picker.el --- Live premise search picker for premise-lsp  -*- lexical-binding: t; -*-

;; Package-Requires: ((emacs "27.1"))
;; Keywords: languages, tools
;; SPDX-License-Identifier: Apache-2.0

;;; Commentary:

;; M-x premise-lsp-pick: a premise search whose results follow the
;; minibuffer as you type.  Each change is debounced
;; (`premise-lsp-picker-debounce'); the search still pending for an older
;; text is cancelled ($/cancelRequest) and its reply, if it comes anyway,
;; dropped.  RET inserts the selected premise's name at point (the top
;; result when the text typed is not a candidate), with the import edit the
;; server's result may carry, in one undo step; `premise-lsp-picker-jump-key'
;; (C-c C-o), or a prefix argument, visits its source at its declaration
;; instead.  The preview (`*premise-lsp preview*') shows the statement,
;; docstring and module.
;;
;; With consult installed the minibuffer is `consult--read' over a dynamic
;; collection (consult's own debouncing, preview as you move); otherwise
;; `completing-read' whose table is the latest results, re-queried as you
;; type and shown in *Completions*.  The prover's input method (lean4-mode's
;; "Lean": \le -> ≤) is active in the minibuffer as in the buffer.
;;
;;   (require 'premise-lsp-picker)
;;   (define-key lean4-mode-map (kbd "C-c C-s") #'premise-lsp-pick)

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'premise-lsp)

(declare-function jsonrpc-notify "jsonrpc")
(declare-function jsonrpc-async-request "jsonrpc")
(declare-function jsonrpc--async-request-1 "jsonrpc")
(declare-function consult--read "consult")
(declare-function consult--dynamic-collection "consult")
(declare-function premise-lsp-lsp-workspace "premise-lsp-lsp")
(declare-function premise-lsp-lsp--from-json "premise-lsp-lsp")
(declare-function lsp-request-async "lsp-mode")
(declare-function lsp-cancel-request-by-token "lsp-mode")
(defvar lsp--cur-workspace)

(defgroup premise-lsp-picker nil
  "Live premise search picker."
  :group 'premise-lsp
  :prefix "premise-lsp-picker-")

(defcustom premise-lsp-picker-debounce 0.15
  "Seconds of quiet typing before the picker searches again."
  :type 'number)

(defcustom premise-lsp-picker-k 30
  "How many results the picker asks for."
  :type 'integer)

(defcustom premise-lsp-picker-backend 'auto
  "The minibuffer UI: `consult' when installed (`auto'), or `completing-read'."
  :type '(choice (const auto) (const consult) (const completing-read)))

(defcustom premise-lsp-picker-input-method 'auto
  "Input method active in the picker's minibuffer.
`auto': the one active in the buffer searched from, else \"Lean\" when
lean4-mode's input method is registered; a string names one; nil: none."
  :type '(choice (const auto) (const :tag "None" nil) string))

(defcustom premise-lsp-picker-jump-key "C-c C-o"
  "Key (as for `kbd') in the picker that visits the selected premise's source."
  :type 'string)

(defcustom premise-lsp-picker-request-timeout 30
  "Seconds to wait for one search before giving up."
  :type 'number)

;;;; A search session: the buffer searched from, its server, the requests

(cl-defstruct (premise-lsp-picker-session (:constructor premise-lsp-picker--make) (:copier nil))
  buffer point document send
  (seq 0) pending timer hits query
  ;; what happened, for tests: queries sent, ids cancelled, stale replies dropped
  (sent nil) (cancelled nil) (dropped 0))

(defun premise-lsp-picker--eglot-send (server)
  "A send function over Eglot SERVER.
It takes (PARAMS ON-RESULT ON-ERROR) and returns a cancel function."
  (lambda (params on-result on-error)
    (let* ((args (list :success-fn on-result :error-fn on-error
                       :timeout-fn (lambda () (funcall on-error '(:message "timed out")))
                       :timeout premise-lsp-picker-request-timeout))
           ;; the id, to cancel it by: jsonrpc-async-request returns nil
           (id (if (fboundp 'jsonrpc--async-request-1)
                   (car-safe (apply #'jsonrpc--async-request-1 server :workspace/executeCommand params args))
                 (apply #'jsonrpc-async-request server :workspace/executeCommand params args)
                 nil)))
      (lambda ()
        (when id
          (jsonrpc-notify server :$/cancelRequest (list :id id)))
        id))))

(defun premise-lsp-picker--lsp-send (ws)
  "A send function over lsp-mode workspace WS."
  (lambda (params on-result on-error)
    (let ((token (make-symbol "premise-lsp-picker")))
      (let ((lsp--cur-workspace ws))
        (lsp-request-async "workspace/executeCommand" params
                           (lambda (r) (funcall on-result (premise-lsp-lsp--from-json r)))
                           :error-handler (lambda (e) (funcall on-error (premise-lsp-lsp--from-json e)))
                           :cancel-token token :mode 'alive))
      (lambda () (lsp-cancel-request-by-token token) token))))

(defun premise-lsp-picker-session ()
  "A search session for the current buffer, at point (an error without a server)."
  (let* ((backend (premise-lsp--backend)) ; the user-error when there is no server
         (server (premise-lsp--eglot-server))
         (ws (and (not server) (fboundp 'premise-lsp-lsp-workspace) (premise-lsp-lsp-workspace))))
    (premise-lsp-picker--make
     :buffer (current-buffer)
     :point (copy-marker (point) t)
     :document (funcall (plist-get backend :document))
     :send (cond (server (premise-lsp-picker--eglot-send server))
                 (ws (premise-lsp-picker--lsp-send ws))
                 (t (error "premise-lsp: no asynchronous requests in this buffer's client"))))))

(defun premise-lsp-picker--cancel (s)
  "Cancel S's pending search, if any."
  (when-let ((cancel (premise-lsp-picker-session-pending s)))
    (push (funcall cancel) (premise-lsp-picker-session-cancelled s))
    (setf (premise-lsp-picker-session-pending s) nil)))

(defun premise-lsp-picker-search (s text on-results)
  "Search TEXT (empty: the goal at point) in session S.
ON-RESULTS gets (HITS QUERY ERROR) for the latest search only; a search
still pending is cancelled first."
  (let* ((seq (cl-incf (premise-lsp-picker-session-seq s)))
         (q (string-trim (or text "")))
         (doc (premise-lsp-picker-session-document s))
         (arg (append (unless (string-empty-p q) (list :query q))
                      (list :uri (plist-get doc :uri) :position (plist-get doc :position)
                            :k premise-lsp-picker-k)))
         (params (list :command premise-lsp-search-command :arguments (vector arg))))
    (premise-lsp-picker--cancel s)
    (push q (premise-lsp-picker-session-sent s))
    (cl-flet ((latest-p ()
                (or (= seq (premise-lsp-picker-session-seq s))
                    (progn (cl-incf (premise-lsp-picker-session-dropped s)) nil))))
      (setf (premise-lsp-picker-session-pending s)
            (funcall (premise-lsp-picker-session-send s) params
                     (lambda (result)
                       (when (latest-p)
                         (setf (premise-lsp-picker-session-pending s) nil
                               (premise-lsp-picker-session-hits s) (append (plist-get result :results) nil)
                               (premise-lsp-picker-session-query s) q)
                         (funcall on-results (premise-lsp-picker-session-hits s) q nil)))
                     (lambda (err)
                       (when (latest-p)
                         (setf (premise-lsp-picker-session-pending s) nil)
                         (funcall on-results nil q err))))))
    seq))

(defun premise-lsp-picker-search-sync (s text)
  "Search TEXT in session S and wait for the hits.
Interrupted (input with `while-no-input', \\[keyboard-quit]), the search is
cancelled."
  (let ((done nil) (hits nil) (err nil)
        (deadline (+ (float-time) premise-lsp-picker-request-timeout)))
    (unwind-protect
        (progn
          (premise-lsp-picker-search s text (lambda (h _q e) (setq done t hits h err e)))
          (while (and (not done) (< (float-time) deadline))
            (accept-process-output nil 0.02))
          (when err (message "premise-lsp: search failed: %s" (plist-get err :message)))
          hits)
      (unless done (premise-lsp-picker--cancel s)))))

(defun premise-lsp-picker-close (s)
  "End session S: cancel its timer and pending search."
  (when (premise-lsp-picker-session-timer s)
    (cancel-timer (premise-lsp-picker-session-timer s))
    (setf (premise-lsp-picker-session-timer s) nil))
  (cl-incf (premise-lsp-picker-session-seq s))
  (premise-lsp-picker--cancel s))

(defun premise-lsp-picker-input (s text on-results)
  "TEXT was typed in S's prompt: search it once typing pauses."
  (when (premise-lsp-picker-session-timer s)
    (cancel-timer (premise-lsp-picker-session-timer s)))
  (setf (premise-lsp-picker-session-timer s)
        (run-with-timer premise-lsp-picker-debounce nil
                        (lambda ()
                          (setf (premise-lsp-picker-session-timer s) nil)
                          (premise-lsp-picker-search s text on-results)))))

;;;; What a hit shows, and the two actions

(defun premise-lsp-picker--find (s name)
  "The hit of session S named NAME, or nil."
  (cl-find name (premise-lsp-picker-session-hits s) :key (lambda (h) (plist-get h :name)) :test #'equal))

(defun premise-lsp-picker-preview-text (hit)
  "The preview of HIT: statement, docstring, module and where it is."
  (when hit
    (let ((doc (plist-get hit :doc)))
      (concat (plist-get hit :name)
              (when-let ((k (plist-get hit :kind))) (format "  (%s)" k)) "\n\n"
              "  " (replace-regexp-in-string "\n" "\n  " (or (plist-get hit :statement) "")) "\n"
              (when (and (stringp doc) (string-match-p "[^[:space:]]" doc)) (concat "\n" (string-trim doc) "\n"))
              "\n"
              (when-let ((m (plist-get hit :module))) (format "module %s\n" m))
              (or (plist-get hit :location) (plist-get hit :file) "")
              (if (premise-lsp--uri-file (plist-get hit :uri)) "" "  (source not known)")
              "\n"))))

(defun premise-lsp-picker--show-preview (hit)
  "Show HIT in the *premise-lsp preview* buffer (when a frame can show it)."
  (let ((buf (get-buffer-create "*premise-lsp preview*")))
    (with-current-buffer buf
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (or (premise-lsp-picker-preview-text hit) "")))
      (setq buffer-read-only t))
    (unless noninteractive
      (display-buffer buf '((display-buffer-in-side-window) (side . bottom) (window-height . 8))))
    buf))

(defun premise-lsp-picker--candidate (hit)
  "The completion candidate of HIT: its name, annotated with statement and module."
  (propertize (plist-get hit :name) 'premise-lsp-hit hit))

(defun premise-lsp-picker--annotate (s)
  "An annotation function for session S's candidates."
  (lambda (cand)
    (when-let ((hit (premise-lsp-picker--find s (substring-no-properties cand))))
      (concat "  " (replace-regexp-in-string "\n" " " (or (plist-get hit :statement) ""))
              (when-let ((m (plist-get hit :module))) (propertize (concat "  " m) 'face 'shadow))))))

(defun premise-lsp-picker-import-edit (hit uri)
  "The workspace edit importing HIT's module into URI, as the server gives it.
`:importEdit' (a TextEdit or a WorkspaceEdit) or `:additionalTextEdits'
\(TextEdits of the searched document); nil when there is none."
  (let ((e (plist-get hit :importEdit))
        (extra (plist-get hit :additionalTextEdits)))
    (cond ((and e (or (plist-get e :changes) (plist-get e :documentChanges))) e)
          ((and e (plist-get e :range)) (list :changes (list (intern (concat ":" uri)) (vector e))))
          ((and extra (> (length extra) 0)) (list :changes (list (intern (concat ":" uri)) (vconcat extra)))))))

(defun premise-lsp-picker--apply-edit (edit)
  "Apply workspace EDIT (Eglot's or lsp-mode's way)."
  (cond ((fboundp 'eglot--apply-workspace-edit)
         ;; Eglot 1.9 asks for confirmation of edits to several files only
         (eglot--apply-workspace-edit edit))
        ((fboundp 'lsp--apply-workspace-edit) (lsp--apply-workspace-edit edit))
        (t (error "premise-lsp: no way to apply a workspace edit"))))

(defun premise-lsp-picker-accept (s hit)
  "Insert HIT's name where session S searched from, with its import edit.
One undo step.  Returns the name, or nil."
  (let ((buf (premise-lsp-picker-session-buffer s)))
    (when (and hit (buffer-live-p buf))
      (with-current-buffer buf
        (barf-if-buffer-read-only)
        (let ((import (premise-lsp-picker-import-edit hit (plist-get (premise-lsp-picker-session-document s) :uri)))
              (group (prepare-change-group))
              (done nil))
          (unwind-protect
              (progn
                (activate-change-group group)
                (goto-char (premise-lsp-picker-session-point s))
                (let ((end (copy-marker (point) t)))
                  (insert (plist-get hit :name))
                  (when import (premise-lsp-picker--apply-edit import))
                  (goto-char end)
                  (set-marker end nil))
                (setq done t)
                (when-let ((win (get-buffer-window buf))) (set-window-point win (point)))
                (plist-get hit :name))
            (if (not done)
                (cancel-change-group group)
              (undo-amalgamate-change-group group) ; the name and its import: one undo step
              (accept-change-group group))))))))

(defun premise-lsp-picker-jump (_s hit)
  "Visit HIT's source at its declaration; the buffer visited, or nil."
  (when hit (premise-lsp--visit hit)))

;;;; The minibuffer

(defvar premise-lsp-picker--action nil
  "Set by the jump key before the minibuffer exits: `jump'.")

(defun premise-lsp-picker-jump-exit ()
  "In the picker: visit the selected premise's source instead of inserting it."
  (interactive)
  (setq premise-lsp-picker--action 'jump)
  (call-interactively (or (key-binding (kbd "RET")) #'exit-minibuffer)))

(defun premise-lsp-picker--input-method (buffer)
  "The input method for the picker's minibuffer, searched from BUFFER."
  (pcase premise-lsp-picker-input-method
    ('auto (or (buffer-local-value 'current-input-method buffer)
               (and (assoc "Lean" input-method-alist) "Lean")))
    ((and (pred stringp) im) (and (assoc im input-method-alist) im))
    (_ nil)))

(defun premise-lsp-picker--minibuffer-setup (s)
  "Set up the picker's minibuffer for session S: input method, jump key."
  (when-let ((im (premise-lsp-picker--input-method (premise-lsp-picker-session-buffer s))))
    (activate-input-method im))
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map (current-local-map))
    (define-key map (kbd premise-lsp-picker-jump-key) #'premise-lsp-picker-jump-exit)
    ;; a search text has spaces and question marks (completion binds them)
    (define-key map " " #'self-insert-command)
    (define-key map "?" #'self-insert-command)
    (use-local-map map)))

(defvar-local premise-lsp-picker--minibuffer-session nil
  "In the picker's minibuffer: its session.")

(defvar vertico--input)
(declare-function vertico--exhibit "vertico")
(declare-function icomplete-exhibit "icomplete")

(defun premise-lsp-picker--refresh (s)
  "Show session S's new results in its minibuffer's completion UI.
Replies arrive in a process filter, whose current buffer is not the
minibuffer: the minibuffer is found from its window."
  (when-let* ((win (active-minibuffer-window))
              (buf (window-buffer win)))
    (when (eq (buffer-local-value 'premise-lsp-picker--minibuffer-session buf) s)
      (with-selected-window win
        (cond ((bound-and-true-p vertico-mode)
               (setq vertico--input t) ; recompute the candidates
               (ignore-errors (vertico--exhibit)))
              ((bound-and-true-p icomplete-mode)
               (completion--flush-all-sorted-completions)
               (ignore-errors (icomplete-exhibit)))
              (t (minibuffer-completion-help)))))))

(defun premise-lsp-picker--read-completing (s initial)
  "Read a premise with `completing-read', re-querying session S as text changes.
INITIAL is the starting text.  Returns the hit chosen, or nil."
  (let* ((table (lambda (string pred action)
                  (let ((names (mapcar #'premise-lsp-picker--candidate (premise-lsp-picker-session-hits s))))
                    (pcase action
                      ('metadata `(metadata (category . premise-lsp)
                                            (annotation-function . ,(premise-lsp-picker--annotate s))
                                            (display-sort-function . identity)
                                            (cycle-sort-function . identity)))
                      ;; the server filtered: every hit is a completion of any text
                      ('t (all-completions "" names pred))
                      ('nil (if (member string names) t string))
                      ('lambda (and (member string names) t))
                      (`(boundaries . ,_) nil)))))
         (shown (lambda (hits _q err)
                  (when err (message "premise-lsp: search failed: %s" (plist-get err :message)))
                  (when hits (premise-lsp-picker--show-preview (car hits)))
                  (premise-lsp-picker--refresh s)))
         (changed (lambda (&rest _)
                    (premise-lsp-picker-input s (minibuffer-contents-no-properties) shown)))
         (text (minibuffer-with-setup-hook
                   (lambda ()
                     (setq premise-lsp-picker--minibuffer-session s)
                     (premise-lsp-picker--minibuffer-setup s)
                     (add-hook 'after-change-functions changed nil t)
                     (premise-lsp-picker-search s initial shown))
                 (completing-read "Premise (RET: insert, C-c C-o: visit): " table nil nil initial)))
         (text (string-trim (substring-no-properties text))))
    ;; the results of the text as it is at RET (a search may still be due or pending)
    (unless (and (equal text (premise-lsp-picker-session-query s))
                 (null (premise-lsp-picker-session-timer s))
                 (null (premise-lsp-picker-session-pending s)))
      (when (premise-lsp-picker-session-timer s)
        (cancel-timer (premise-lsp-picker-session-timer s))
        (setf (premise-lsp-picker-session-timer s) nil))
      (unless (premise-lsp-picker--find s text)
        (premise-lsp-picker-search-sync s text)))
    (or (premise-lsp-picker--find s text) (car (premise-lsp-picker-session-hits s)))))

(defun premise-lsp-picker--read-consult (s initial)
  "Read a premise with consult over session S's dynamic collection.
INITIAL is the starting text.  Returns the hit chosen, or nil."
  (require 'consult)
  (let* ((map (make-sparse-keymap))
         (choice
          (progn
            (define-key map (kbd premise-lsp-picker-jump-key) #'premise-lsp-picker-jump-exit)
            (minibuffer-with-setup-hook
                (lambda ()
                  (when-let ((im (premise-lsp-picker--input-method (premise-lsp-picker-session-buffer s))))
                    (activate-input-method im)))
              (consult--read
               (consult--dynamic-collection
                (lambda (input)
                  (mapcar #'premise-lsp-picker--candidate (premise-lsp-picker-search-sync s input)))
                :min-input 0 :debounce premise-lsp-picker-debounce)
               :prompt "Premise: "
               :initial initial
               :sort nil
               :require-match t
               :category 'premise-lsp
               :keymap map
               :annotate (premise-lsp-picker--annotate s)
               :state (lambda (action cand)
                        (when (and (eq action 'preview) cand)
                          (premise-lsp-picker--show-preview
                           (premise-lsp-picker--find s (substring-no-properties cand)))))
               :lookup (lambda (sel &rest _) sel))))))
    (and choice (premise-lsp-picker--find s (substring-no-properties choice)))))

(defun premise-lsp-picker--use-consult-p ()
  "Does the picker read with consult?"
  (pcase premise-lsp-picker-backend
    ('consult t)
    ('completing-read nil)
    (_ (and (require 'consult nil t) (fboundp 'consult--dynamic-collection)))))

;;;###autoload
(defun premise-lsp-pick (&optional visit initial)
  "Search premises live: the results follow the text as it is typed.
RET inserts the chosen premise's name at point (with its import, when the
server gives one); `premise-lsp-picker-jump-key' or a prefix argument
\(VISIT) visits its source at its declaration instead.  An empty text
searches for the goal at point.  INITIAL is the starting text."
  (interactive (list current-prefix-arg nil))
  ;; no read-only check here: the jump key works from read-only buffers (library
  ;; sources); inserting checks
  (let ((s (premise-lsp-picker-session))
        (premise-lsp-picker--action (and visit 'jump)))
    (unwind-protect
        (let ((hit (if (premise-lsp-picker--use-consult-p)
                       (premise-lsp-picker--read-consult s (or initial ""))
                     (premise-lsp-picker--read-completing s (or initial "")))))
          (cond ((null hit) (message "premise-lsp: no premises found") nil)
                ((eq premise-lsp-picker--action 'jump)
                 (and (premise-lsp-picker-jump s hit) (plist-get hit :name)))
                (t (premise-lsp-picker-accept s hit))))
      (premise-lsp-picker-close s)
      (set-marker (premise-lsp-picker-session-point s) nil))))

(provide 'premise-lsp-picker)
;;; premise-lsp-picker.el ends here
