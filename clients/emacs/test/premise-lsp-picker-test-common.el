;;; premise-lsp-picker-test-common.el --- helpers of the picker's ERT suites  -*- lexical-binding: t; -*-

;; Loaded by premise-lsp-picker-test.el (Eglot) and premise-lsp-picker-lsp-test.el (lsp-mode).

;;; Code:

(require 'premise-lsp-picker)

(defun premise-lsp-picker-test--wait (cond what)
  "Wait (running timers and process output) until COND returns non-nil; its value."
  (let ((deadline (+ (float-time) 10)) v)
    (while (and (not (setq v (funcall cond))) (< (float-time) deadline))
      (accept-process-output nil 0.02))
    (or v (error "timed out waiting for %s" what))))

(defun premise-lsp-picker-test--first (s)
  (plist-get (car (premise-lsp-picker-session-hits s)) :name))

(defvar premise-lsp-picker-test--completions nil
  "What *Completions* showed each time `premise-lsp-picker-test--await' ran.")

(defun premise-lsp-picker-test--await ()
  "In the picker's minibuffer: wait until the text typed has been searched and shown.
Records the *Completions* buffer's text."
  (interactive)
  (let ((s premise-lsp-picker--minibuffer-session)
        (text (string-trim (minibuffer-contents-no-properties))))
    (premise-lsp-picker-test--wait
     (lambda () (and (equal (premise-lsp-picker-session-query s) text)
                     (null (premise-lsp-picker-session-pending s))))
     (format "the results of %S" text))
    (push (if-let ((b (get-buffer "*Completions*"))) (with-current-buffer b (buffer-string)) "")
          premise-lsp-picker-test--completions)))

(defun premise-lsp-picker-test--type (keys)
  "Type KEYS (a `kbd' string) at the command loop: C-c p is `premise-lsp-pick',
C-c w waits in its minibuffer for the results of the text typed."
  (let ((map (make-sparse-keymap))
        (pt (point)))
    (define-key map (kbd "C-c p") #'premise-lsp-pick)
    (define-key map (kbd "C-c w") #'premise-lsp-picker-test--await)
    ;; the command loop acts on the selected window's buffer
    (switch-to-buffer (current-buffer))
    (set-window-point (selected-window) pt)
    (let ((minor-mode-overriding-map-alist nil)
          (emulation-mode-map-alists (cons `((t . ,map)) emulation-mode-map-alists)))
      (execute-kbd-macro (kbd keys)))))

(provide 'premise-lsp-picker-test-common)
;;; premise-lsp-picker-test-common.el ends here
