/**
 * Clearbase for Google Forms: sends every response of this form, with the files uploaded to it, to Clearbase.
 *
 * Install it once, signed in as the form's owner:
 *  1. In the form, open ⋮ (More) → Script editor (Apps Script). Replace everything in the editor with this
 *     file and press Save.
 *  2. In the script editor, open Project Settings (the gear) → Script Properties → Add script property, and
 *     add two properties:
 *       CLEARBASE_URL     https://<your Clearbase>/api/intake/google
 *       CLEARBASE_SECRET  the secret set for Google Forms in Clearbase, Settings → Integrations (or the
 *                         server's FORM_WEBHOOK_SECRET)
 *     The secret stays in the project's properties, never in this code.
 *  3. Back in the editor (Editor, the < > icon), choose `install` in the function list and press Run. Google
 *     asks you to allow the script to read this form, read the files uploaded to it in Drive, and connect to
 *     an external service: allow it. The execution log then says "Clearbase: installed".
 *  4. Send a test response. Executions (in the editor's left bar) lists each run with Clearbase's answer; a
 *     response Clearbase refuses, or cannot take after a few tries, shows as Failed there.
 *
 * Running `install` again is safe: it replaces the trigger rather than adding a second one.
 *
 * What is sent: `{ responseId, timestamp, answers: [{ key, label, value, files }] }`, one answer per question
 * answered (key: the question's id, label: its title, value: the answer as text); a file-upload question has
 * `files: [{ filename, mimeType, contentBase64 }]` read from Drive instead of a value. The body is signed
 * with `X-Clearbase-Signature: sha256=<hex HMAC-SHA256 of the body>`, computed with CLEARBASE_SECRET.
 *
 * Apps Script reference used here:
 *  - form submit event (e.response): https://developers.google.com/apps-script/guides/triggers/events
 *  - FormResponse.getItemResponses(), getId(), getTimestamp():
 *    https://developers.google.com/apps-script/reference/forms/form-response
 *  - ItemResponse.getItem() / getResponse() (a file-upload item answers with an array of Drive file ids):
 *    https://developers.google.com/apps-script/reference/forms/item-response
 *  - Item.getId(), getTitle(), getType(), FormApp.ItemType.FILE_UPLOAD:
 *    https://developers.google.com/apps-script/reference/forms/item
 *  - DriveApp.getFileById(id).getBlob(): https://developers.google.com/apps-script/reference/drive/drive-app
 *  - Utilities.base64Encode, computeHmacSha256Signature (which returns signed bytes, -128..127), newBlob,
 *    sleep: https://developers.google.com/apps-script/reference/utilities/utilities
 *  - UrlFetchApp.fetch(url, { method, contentType, payload, headers, muteHttpExceptions }):
 *    https://developers.google.com/apps-script/reference/url-fetch/url-fetch-app
 *  - ScriptApp.newTrigger(...).forForm(form).onFormSubmit().create():
 *    https://developers.google.com/apps-script/reference/script/form-trigger-builder
 *  - Script properties: https://developers.google.com/apps-script/guides/properties
 */

/** How many times a delivery is tried when Clearbase answers 5xx or cannot be reached. */
var CLEARBASE_ATTEMPTS = 4;

/** Installs the trigger that runs onFormSubmit for every new response (replacing an earlier one). */
function install() {
  var form = FormApp.getActiveForm();
  readClearbaseSettings_();
  ScriptApp.getProjectTriggers().forEach(function (trigger) {
    if (trigger.getHandlerFunction() === 'onFormSubmit') ScriptApp.deleteTrigger(trigger);
  });
  ScriptApp.newTrigger('onFormSubmit').forForm(form).onFormSubmit().create();
  console.log('Clearbase: installed for the form "' + form.getTitle() + '"');
}

/** The installable form-submit trigger: sends the response to Clearbase. */
function onFormSubmit(e) {
  var settings = readClearbaseSettings_();
  var payload = buildClearbasePayload_(e.response);
  sendToClearbase_(settings, JSON.stringify(payload));
}

function readClearbaseSettings_() {
  var properties = PropertiesService.getScriptProperties();
  var url = properties.getProperty('CLEARBASE_URL');
  var secret = properties.getProperty('CLEARBASE_SECRET');
  if (!url || !/^https:\/\//.test(url)) {
    throw new Error('Clearbase: set the script property CLEARBASE_URL to https://<your Clearbase>/api/intake/google');
  }
  if (!secret || secret.length < 16) {
    throw new Error('Clearbase: set the script property CLEARBASE_SECRET to the secret set in Clearbase (at least 16 characters)');
  }
  return { url: url, secret: secret };
}

/** The response as Clearbase reads it. */
function buildClearbasePayload_(response) {
  var answers = response.getItemResponses().map(function (itemResponse) {
    var item = itemResponse.getItem();
    var answer = itemResponse.getResponse();
    var entry = { key: String(item.getId()), label: item.getTitle(), value: null, files: [] };
    if (item.getType() === FormApp.ItemType.FILE_UPLOAD) {
      entry.files = (answer || []).map(function (fileId) {
        var blob = DriveApp.getFileById(fileId).getBlob();
        return { filename: blob.getName(), mimeType: blob.getContentType(), contentBase64: Utilities.base64Encode(blob.getBytes()) };
      });
    } else {
      entry.value = answerText_(answer);
    }
    return entry;
  });
  return { responseId: response.getId(), timestamp: response.getTimestamp().toISOString(), answers: answers };
}

/** A text answer as is; a checkbox list or a grid row by row, joined with commas. */
function answerText_(answer) {
  if (answer === null || answer === undefined) return null;
  if (Array.isArray(answer)) {
    return answer
      .map(function (part) {
        return Array.isArray(part) ? part.join(', ') : String(part);
      })
      .join(', ');
  }
  return String(answer);
}

/** Lower-case hex of bytes as Apps Script gives them: signed, -128..127 (so -1 is 'ff', not '-1'). */
function toHex_(bytes) {
  return bytes
    .map(function (b) {
      var unsigned = b < 0 ? b + 256 : b;
      return (unsigned < 16 ? '0' : '') + unsigned.toString(16);
    })
    .join('');
}

/** Whether an answer is worth trying again: Clearbase busy or failing, not a refusal of this response. */
function isWorthRetrying_(status) {
  return status >= 500 || status === 429 || status === 408;
}

/** Posts the body signed; tries again on a 5xx (or 429, 408) answer or when Clearbase cannot be reached. */
function sendToClearbase_(settings, body) {
  // The exact bytes sent are the bytes signed: the body as UTF-8, the secret as UTF-8.
  var bodyBytes = Utilities.newBlob(body).getBytes();
  var keyBytes = Utilities.newBlob(settings.secret).getBytes();
  var signature = 'sha256=' + toHex_(Utilities.computeHmacSha256Signature(bodyBytes, keyBytes));
  var options = {
    method: 'post',
    contentType: 'application/json; charset=utf-8',
    payload: bodyBytes,
    headers: { 'X-Clearbase-Signature': signature },
    muteHttpExceptions: true,
  };
  var lastProblem = '';
  for (var attempt = 1; attempt <= CLEARBASE_ATTEMPTS; attempt++) {
    var answer = null;
    try {
      answer = UrlFetchApp.fetch(settings.url, options);
    } catch (error) {
      lastProblem = 'Clearbase could not be reached: ' + (error && error.message ? error.message : error);
      console.log(lastProblem);
    }
    if (answer !== null) {
      var status = answer.getResponseCode();
      console.log('Clearbase answered ' + status + ': ' + answer.getContentText().slice(0, 2000));
      if (status < 300) return status;
      if (!isWorthRetrying_(status)) throw new Error('Clearbase refused the response (' + status + '); its answer is in the log above.');
      lastProblem = 'Clearbase answered ' + status;
    }
    if (attempt < CLEARBASE_ATTEMPTS) Utilities.sleep(5000 * attempt);
  }
  throw new Error(lastProblem + ' after ' + CLEARBASE_ATTEMPTS + ' attempts; the response was not delivered.');
}
