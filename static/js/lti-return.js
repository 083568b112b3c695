/**
 * The entry of the LTI tool's Deep Linking return (templates/lti_return.html): the form
 * that takes the chosen activity back to the course is sent at once. Without scripts,
 * or if the browser holds it back, its button does the same.
 */
const form = /** @type {HTMLFormElement | null} */ (
  document.querySelector("form[data-lti-return]")
);
form?.submit();
