// A confirmation asked in the page (a modal <dialog>, so focus stays in it
// and Escape cancels), used before resigning and before abandoning a game.
let seq = 0;

/** Asks `question`; resolves true when `yes` is chosen, false otherwise. */
export function confirmBox(question, { yes = 'Yes', no = 'Cancel', detail = '' } = {}) {
  const id = `confirm-${++seq}`;
  const d = document.createElement('dialog');
  d.className = 'confirm';
  d.setAttribute('aria-labelledby', `${id}-q`);
  d.innerHTML = `<form method="dialog"><p class="q" id="${id}-q"></p><p class="detail"></p>
    <div class="buttons"><button value="yes" class="primary"></button><button value="no"></button></div></form>`;
  d.querySelector('.q').textContent = question;
  d.querySelector('.detail').textContent = detail;
  d.querySelector('.detail').hidden = !detail;
  d.querySelector('[value="yes"]').textContent = yes;
  d.querySelector('[value="no"]').textContent = no;
  document.body.append(d);
  return new Promise((resolve) => {
    d.addEventListener('close', () => {
      resolve(d.returnValue === 'yes');
      d.remove();
    });
    d.showModal();
    d.querySelector('[value="no"]').focus();
  });
}
