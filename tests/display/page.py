"""What the display's browser tests do on the page: read an element's text, click a button
once the view enables it, type into a box."""

from __future__ import annotations

from typing import Any

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By


def text_of(driver: Any, selector: str) -> str:
    """An element's text read in one step in the page (no stale reference mid re-render)."""
    text = driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';", selector)
    return str(text)


def click(driver: Any, wait: Any, selector: str) -> str:
    """Click a button once the view enables it; the message the page shows for the answer."""
    driver.execute_script("document.getElementById('message').textContent = ''")

    def enabled(d: Any) -> Any:
        button = d.find_element(By.CSS_SELECTOR, selector)
        return button if button.is_enabled() else False

    for _ in range(3):  # a redraw may replace the button between finding and clicking it
        try:
            wait.until(enabled).click()
            break
        except StaleElementReferenceException:
            continue
    wait.until(lambda d: text_of(d, "#message"))
    return text_of(driver, "#message")


def type_into(driver: Any, selector: str, text: str) -> None:
    """Replace a box's text with ``text``."""
    box = driver.find_element(By.CSS_SELECTOR, selector)
    box.clear()
    box.send_keys(text)
