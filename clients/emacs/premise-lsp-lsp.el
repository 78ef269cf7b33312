;;; premise-lsp-lsp.el --- premise-lsp through lsp-mode (lean4-mode, isabelle-emacs)  -*- lexical-binding: t; -*-

;; Version: 0.2.0
;; Package-Requires: ((emacs "27.1") (lsp-mode "8.0"))
;; Keywords: languages, tools
;; SPDX-License-Identifier: Apache-2.0

;;; Commentary:

;; Two ways to use premise-lsp with lsp-mode:
;;
;; 1. In front of the prover's own client (`premise-lsp-lsp-proxy-mode'):
;;    lean4-mode registers the lsp-mode client `lean4-lsp' (`lake serve', or
;;    `lean --server' for old Lake), isabelle-emacs registers `lsp-isar'
;;    (`<isabelle>/bin/isabelle vscode_server -o ... ' when
;;    `lsp-isar-define-client-and-start' first runs).  For each such client a
;;    copy is registered under `premise-lsp+<server-id>' with a higher
;;    priority, so lsp-mode starts it instead: its command is
;;      premise-lsp serve --stdio --flavor lean|isabelle -- <their command>
;;    (their command as they build it), or with `premise-lsp-lsp-upstream' set
;;    to `premise-lsp', premise-lsp's own `--lean ROOT' / `--isabelle'.  The
;;    copy keeps their notification handlers (lean4-mode's fringe, isabelle-emacs's
;;    state and output buffers), language id and URI functions, and premise-lsp
;;    forwards all of the prover's traffic.
;;
;;      (require 'premise-lsp-lsp)
;;      (premise-lsp-lsp-proxy-mode 1)
;;
;; 2. Beside them, as an add-on server (`premise-lsp-lsp-add-on-mode'): the
;;    client `premise-lsp' (standalone `premise-lsp serve --stdio', `:add-on? t')
;;    runs next to the prover's server in the same buffer.  Premises are ranked
;;    for the enclosing declaration's text instead of the goal.
;;
;; `premise-lsp-search', `premise-lsp-insert' and `premise-lsp-send-settings'
;; talk to whichever lsp-mode workspace of the buffer is premise-lsp (the one
;; offering the `premise-lsp.search' command); `C-u M-x premise-lsp-search'
;; visits the picked premise's source instead of inserting its name.  Completion is lsp-mode's
;; `lsp-completion-at-point' (lsp-mode merges the servers' items).

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'premise-lsp)
(require 'lsp-mode)

(defcustom premise-lsp-lsp-wrapped-clients '((lean4-lsp . lean) (lsp-isar . isabelle))
  "lsp-mode clients that `premise-lsp-lsp-proxy-mode' puts premise-lsp in front of.
Each entry is (SERVER-ID . FLAVOR), FLAVOR `lean' or `isabelle'."
  :type '(alist :key-type symbol :value-type (choice (const lean) (const isabelle)))
  :group 'premise-lsp)

(defcustom premise-lsp-lsp-upstream 'theirs
  "Which command premise-lsp starts behind a wrapped client.
`theirs': the wrapped client's own command, after `--' (lean4-mode's `lake
serve', isabelle-emacs's `isabelle vscode_server' with its options).
`premise-lsp': premise-lsp's own choice, `--lean ROOT' (ROOT: the lsp-mode
workspace root) or `--isabelle' with `premise-lsp-isabelle-options'."
  :type '(choice (const :tag "The wrapped client's command" theirs)
                 (const :tag "premise-lsp's --lean/--isabelle" premise-lsp))
  :group 'premise-lsp)

(defcustom premise-lsp-lsp-isabelle-options '("vscode_pide_extensions" "editor_output_state")
  "Isabelle options premise-lsp needs to read proof states.
Added as `-o OPTION' to a wrapped `isabelle vscode_server' command
that lacks them."
  :type '(repeat string)
  :group 'premise-lsp)

(defconst premise-lsp-lsp-server-id 'premise-lsp
  "Server id of the add-on client.")

(defvar premise-lsp-lsp-proxy-mode)

(defvar premise-lsp-lsp--wrappers nil
  "Server ids of the wrapper clients registered so far.")

;;;; Command lines

(defun premise-lsp-lsp-wrapper-id (server-id)
  "Server id of premise-lsp's copy of the client SERVER-ID."
  (intern (format "premise-lsp+%s" server-id)))

(defun premise-lsp-lsp--isabelle-command (command)
  "COMMAND with the options of `premise-lsp-lsp-isabelle-options' it lacks."
  (let ((extra (cl-loop for opt in premise-lsp-lsp-isabelle-options
                        unless (cl-loop for (a b) on command
                                        thereis (and (equal a "-o")
                                                     (or (equal b opt) (string-prefix-p (concat opt "=") b))))
                        append (list "-o" opt))))
    (append command extra)))

(defun premise-lsp-lsp-command (flavor their-command &optional root)
  "premise-lsp's command line in front of THEIR-COMMAND, for FLAVOR.
ROOT (default: `default-directory') is the project for `--lean'."
  (append premise-lsp-command
          (pcase premise-lsp-lsp-upstream
            ('theirs
             (append (list "--flavor" (symbol-name flavor) "--")
                     (if (eq flavor 'isabelle)
                         (premise-lsp-lsp--isabelle-command their-command)
                       their-command)))
            ('premise-lsp
             (pcase flavor
               ('lean (list "--lean" (directory-file-name (expand-file-name (or root default-directory)))))
               ('isabelle (cons "--isabelle" premise-lsp-isabelle-options))
               (_ (error "premise-lsp: unknown flavor %S" flavor))))
            (other (user-error "premise-lsp-lsp-upstream: unknown value %S" other)))))

(defun premise-lsp-lsp--present-p ()
  "Is premise-lsp's command runnable?"
  (let ((exe (car premise-lsp-command)))
    (and exe (or (file-executable-p exe) (executable-find exe)))))

(defun premise-lsp-lsp--wrap-connection (connection flavor)
  "An lsp-mode CONNECTION starting premise-lsp in front of CONNECTION's command.
The wrapped connection runs CONNECTION's own :connect, with the function
lsp-mode resolves the command through (`lsp-resolve-final-function' in
lsp-mode 8, `lsp-resolve-final-command' later) returning premise-lsp's
command line around the original one."
  (let ((connect (plist-get connection :connect))
        (test (plist-get connection :test?)))
    (list :connect
          (lambda (&rest args)
            (let* ((resolver (if (fboundp 'lsp-resolve-final-command)
                                 'lsp-resolve-final-command
                               'lsp-resolve-final-function))
                   (original (symbol-function resolver)))
              (cl-letf (((symbol-function resolver)
                         (lambda (command &rest more)
                           (premise-lsp-lsp-command flavor (apply original command more)))))
                (apply connect args))))
          :test? (lambda ()
                   (and (premise-lsp-lsp--present-p)
                        (or (not (eq premise-lsp-lsp-upstream 'theirs)) (null test) (funcall test)))))))

;;;; Language ids

(defun premise-lsp-lsp-register-language-ids ()
  "Tell lsp-mode the language ids of the modes premise-lsp attaches to.
lsp-mode takes a buffer's language id from `lsp-language-id-configuration'
only, and warns into *Warnings* for a buffer it finds none for, over and over
\(once per didOpen and per client activation check).  Entries that lean4-mode
or isabelle-emacs made are kept; only missing ones are added: lean4 for the
Lean modes and `premise-lsp-plain-mode', isabelle for the Isabelle modes and
any .thy file."
  (dolist (entry (append (mapcar (lambda (m) (cons m "lean4")) premise-lsp-lean-modes)
                         (mapcar (lambda (m) (cons m "isabelle")) premise-lsp-isabelle-modes)
                         (list (cons "\\.thy\\'" "isabelle") (cons 'premise-lsp-plain-mode "lean4"))))
    (unless (assoc (car entry) lsp-language-id-configuration)
      (add-to-list 'lsp-language-id-configuration entry t))))

(premise-lsp-lsp-register-language-ids)

;;;; Proxy: premise-lsp in front of lean4-mode's and isabelle-emacs's clients

(defun premise-lsp-lsp-wrap-client (client flavor)
  "Register premise-lsp in front of lsp-mode CLIENT (a `lsp--client') for FLAVOR.
The copy has server id `premise-lsp+ID' and CLIENT's priority plus one."
  (let* ((id (lsp--client-server-id client))
         (copy (copy-lsp--client client))
         (init (lsp--client-initialization-options client)))
    (setf (lsp--client-server-id copy) (premise-lsp-lsp-wrapper-id id)
          (lsp--client-priority copy) (1+ (or (lsp--client-priority client) 0))
          (lsp--client-new-connection copy)
          (premise-lsp-lsp--wrap-connection (lsp--client-new-connection client) flavor)
          (lsp--client-initialization-options copy)
          (lambda ()
            (let ((theirs (if (functionp init) (funcall init) init)))
              (append (and (listp theirs) theirs)
                      (premise-lsp--initialization-options nil)))))
    (lsp-register-client copy)
    (cl-pushnew (lsp--client-server-id copy) premise-lsp-lsp--wrappers)
    copy))

(defun premise-lsp-lsp--after-register (client)
  "Wrap CLIENT when it is one of `premise-lsp-lsp-wrapped-clients'."
  (when-let ((flavor (and premise-lsp-lsp-proxy-mode
                          (alist-get (lsp--client-server-id client) premise-lsp-lsp-wrapped-clients))))
    (premise-lsp-lsp-wrap-client client flavor)))

;;;###autoload
(define-minor-mode premise-lsp-lsp-proxy-mode
  "Run premise-lsp in front of lean4-mode's and isabelle-emacs's lsp-mode servers.
Wraps the clients of `premise-lsp-lsp-wrapped-clients' registered now and
those registered later (isabelle-emacs registers `lsp-isar' only when it
first starts).  Affects buffers whose server starts afterwards.
Turns `premise-lsp-lsp-add-on-mode' off (one premise-lsp per buffer)."
  :global t
  :group 'premise-lsp
  (if premise-lsp-lsp-proxy-mode
      (progn
        (when (bound-and-true-p premise-lsp-lsp-add-on-mode) (premise-lsp-lsp-add-on-mode -1))
        (advice-add 'lsp-register-client :after #'premise-lsp-lsp--after-register)
        (pcase-dolist (`(,id . ,_) premise-lsp-lsp-wrapped-clients)
          (when-let ((client (gethash id lsp-clients)))
            (premise-lsp-lsp--after-register client))))
    (advice-remove 'lsp-register-client #'premise-lsp-lsp--after-register)
    (dolist (id premise-lsp-lsp--wrappers)
      (remhash id lsp-clients))
    (setq premise-lsp-lsp--wrappers nil)))

;;;; Add-on: premise-lsp beside the prover's server

(defun premise-lsp-lsp--language-id (buffer)
  "LSP language id of BUFFER for the add-on client."
  (with-current-buffer buffer
    (cond ((apply #'derived-mode-p premise-lsp-isabelle-modes) "isabelle")
          ((and (buffer-file-name) (string-suffix-p ".thy" (buffer-file-name))) "isabelle")
          (t "lean4"))))

(defun premise-lsp-lsp--add-on-client ()
  "The add-on lsp-mode client: standalone premise-lsp."
  (make-lsp-client
   :new-connection (lsp-stdio-connection (lambda () premise-lsp-command)
                                         #'premise-lsp-lsp--present-p)
   :major-modes (append premise-lsp-lean-modes premise-lsp-isabelle-modes '(premise-lsp-plain-mode))
   :language-id #'premise-lsp-lsp--language-id
   :add-on? t
   :server-id premise-lsp-lsp-server-id
   :initialization-options (lambda () (premise-lsp--initialization-options nil))))

;;;###autoload
(define-minor-mode premise-lsp-lsp-add-on-mode
  "Run premise-lsp as an lsp-mode add-on server beside the prover's server.
Turns `premise-lsp-lsp-proxy-mode' off (one premise-lsp per buffer)."
  :global t
  :group 'premise-lsp
  (if premise-lsp-lsp-add-on-mode
      (progn
        (when premise-lsp-lsp-proxy-mode (premise-lsp-lsp-proxy-mode -1))
        (premise-lsp-lsp-register-language-ids)
        (lsp-register-client (premise-lsp-lsp--add-on-client)))
    (remhash premise-lsp-lsp-server-id lsp-clients)))

;;;; The lsp-mode backend of the commands

(defun premise-lsp-lsp--from-json (value)
  "VALUE as parsed by lsp-mode (hash tables or plists), with objects as plists."
  (cond ((hash-table-p value)
         (let (out)
           (maphash (lambda (k v) (setq out (cons (premise-lsp-lsp--from-json v) (cons (intern (concat ":" k)) out))))
                    value)
           (nreverse out)))
        ((vectorp value) (vconcat (mapcar #'premise-lsp-lsp--from-json value)))
        ((and (consp value) (keywordp (car value)))
         (cl-loop for (k v) on value by #'cddr append (list k (premise-lsp-lsp--from-json v))))
        ((eq value :json-false) nil)
        (t value)))

(defun premise-lsp-lsp-workspace ()
  "The lsp-mode workspace of this buffer that is premise-lsp, or nil."
  (when (bound-and-true-p lsp-mode)
    (cl-find-if (lambda (w)
                  (with-lsp-workspace w
                    (and (eq (lsp--workspace-status w) 'initialized)
                         (lsp-can-execute-command? premise-lsp-search-command))))
                (lsp-workspaces))))

(defun premise-lsp-lsp--check-columns ()
  "Signal a `user-error' when lsp-mode would misplace an edit at point.
lsp-mode without position-encoding support (lsp-mode 8, for one) counts
columns in characters where LSP counts UTF-16 units: on a line with a
character beyond U+FFFF (𝓝, 𝔼) before point, an \"Insert premise\" edit
would land in the wrong column (lsp-mode issue #2080)."
  (when (and (not (boundp 'lsp--position-column-function))
             (string-match-p "[\U00010000-\U0010FFFF]" (buffer-substring-no-properties (line-beginning-position) (point))))
    (user-error "premise-lsp: not inserted: this lsp-mode counts columns in characters, not UTF-16, and the line has a character beyond U+FFFF (like 𝓝) before point, so the edit would land in the wrong place; use `premise-lsp-search' here, or Eglot")))

(defun premise-lsp-lsp--actions (ws keep)
  "Code actions of WS at point that KEEP accepts, as (TITLE . ACTION)."
  (premise-lsp-lsp--check-columns)
  (let ((params (list :textDocument (lsp--text-document-identifier)
                      :range (lsp--region-to-range (point) (point))
                      :context (list :diagnostics [] :only ["quickfix"]))))
    (cl-loop for a across (vconcat (with-lsp-workspace ws
                                     (lsp-request "textDocument/codeAction" params)))
             when (funcall keep a)
             collect (cons (lsp:code-action-title a) a))))

(defun premise-lsp-lsp--backend ()
  "The lsp-mode backend, when lsp-mode runs premise-lsp in this buffer."
  (when-let ((ws (premise-lsp-lsp-workspace)))
    (list :request (lambda (method params)
                     (premise-lsp-lsp--from-json (with-lsp-workspace ws (lsp-request method params))))
          :notify (lambda (method params) (with-lsp-workspace ws (lsp-notify method params)))
          :document (lambda ()
                      (let ((p (lsp--text-document-position-params)))
                        (list :uri (lsp--buffer-uri) :position (plist-get p :position))))
          :code-actions (lambda ()
                          (premise-lsp-lsp--actions
                           ws (lambda (a) (premise-lsp--insert-action-p (lsp:code-action-title a)))))
          :checked-actions (lambda ()
                             (premise-lsp-lsp--actions
                              ws (lambda (a) (premise-lsp--checked-action-p (premise-lsp-lsp--from-json a)))))
          :execute (lambda (action) (with-lsp-workspace ws (lsp-execute-code-action action))))))

(add-hook 'premise-lsp-backend-functions #'premise-lsp-lsp--backend)

(provide 'premise-lsp-lsp)
;;; premise-lsp-lsp.el ends here
